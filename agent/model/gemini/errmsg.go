package gemini

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"google.golang.org/genai"

	"companion/agent/model"
)

// finalError turns the last failure into a *model.APIError whose message is
// one sentence the user can act on.
func (p *Provider) finalError(err error, hint *retryHint, attempts int, delivered bool, modelName string) error {
	out := &model.APIError{Attempts: attempts, Err: err}
	if ae, ok := asAPIError(err); ok {
		out.Status = ae.Code
		out.Message = p.statusMessage(ae, hint, attempts, modelName)
		return out
	}
	problem := model.ConnectionProblem(err)
	switch {
	case delivered:
		if problem == "" {
			problem = err.Error()
		}
		out.Message = fmt.Sprintf("The %s stream broke off mid-response: %s.", p.apiName(), problem)
	case problem != "":
		out.Message = fmt.Sprintf("Could not reach the %s at %s: %s%s.", p.apiName(), p.endpoint(err), problem, model.AfterAttempts(attempts))
	default:
		out.Message = fmt.Sprintf("The %s request failed: %s.", p.apiName(), model.OneLine(err.Error()))
	}
	return out
}

// statusMessage explains an HTTP error status.
func (p *Provider) statusMessage(ae genai.APIError, hint *retryHint, attempts int, modelName string) string {
	api, code, detail := p.apiName(), ae.Code, model.OneLine(ae.Message)
	switch {
	case code == http.StatusBadRequest && keyProblem(ae):
		return fmt.Sprintf("%s rejected the API key (400): %s.", api, p.credentialHint())
	case code == http.StatusUnauthorized || code == http.StatusForbidden:
		if p.cfg.UseVertexAI && p.cfg.APIKey == "" && detail != "" {
			return fmt.Sprintf("%s denied access (%d): %s (%s).", api, code, p.credentialHint(), detail)
		}
		if p.cfg.UseVertexAI && p.cfg.APIKey == "" {
			return fmt.Sprintf("%s denied access (%d): %s.", api, code, p.credentialHint())
		}
		return fmt.Sprintf("%s rejected the API key (%d): %s.", api, code, p.credentialHint())
	case code == http.StatusNotFound:
		return fmt.Sprintf("%s does not know model %q (404): check the model name and the base URL.", api, modelName)
	case code == http.StatusTooManyRequests:
		if d, ok := serverDelay(ae, hint); ok && d > p.retry.MaxServerDelay {
			return fmt.Sprintf("%s quota is exhausted (429): it asks to wait %s, so try later or check your plan and billing.", api, d)
		}
		return fmt.Sprintf("%s is rate-limiting requests (429) and did not recover after %s.", api, model.Plural(attempts, "attempt"))
	case code >= 500:
		if detail == "" {
			return fmt.Sprintf("%s failed with a server error (%d) after %s.", api, code, model.Plural(attempts, "attempt"))
		}
		return fmt.Sprintf("%s failed with a server error (%d) after %s: %s.", api, code, model.Plural(attempts, "attempt"), detail)
	case detail == "":
		return fmt.Sprintf("%s rejected the request (%d).", api, code)
	default:
		return fmt.Sprintf("%s rejected the request (%d): %s.", api, code, detail)
	}
}

// keyProblem reports whether a 400 is about the API key.
func keyProblem(ae genai.APIError) bool {
	for _, d := range ae.Details {
		if r, _ := d["reason"].(string); strings.HasPrefix(r, "API_KEY_") {
			return true
		}
	}
	return strings.Contains(strings.ToLower(ae.Message), "api key")
}

// apiName is how messages name the service.
func (p *Provider) apiName() string {
	if p.cfg.UseVertexAI {
		return "Vertex AI"
	}
	return "Gemini API"
}

// credentialHint says what to check when authentication failed.
func (p *Provider) credentialHint() string {
	switch {
	case !p.cfg.UseVertexAI:
		return "check GEMINI_API_KEY"
	case p.cfg.APIKey != "":
		return "check the Vertex AI API key"
	default:
		return "check your Google Cloud credentials and the project's Vertex AI permissions"
	}
}

// endpoint is the scheme and host the failed request went to.
func (p *Provider) endpoint(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		if u, perr := url.Parse(ue.URL); perr == nil && u.Host != "" {
			return u.Scheme + "://" + u.Host
		}
	}
	if p.cfg.BaseURL != "" {
		return strings.TrimRight(p.cfg.BaseURL, "/")
	}
	if p.cfg.UseVertexAI {
		return "the Vertex AI endpoint"
	}
	return "https://generativelanguage.googleapis.com"
}
