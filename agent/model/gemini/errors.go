package gemini

import "errors"

// Sentinel errors returned by New for configurations that cannot work.
var (
	// ErrNoAPIKey means the Gemini Developer API was chosen without a key.
	ErrNoAPIKey = errors.New("no Gemini API key: set GEMINI_API_KEY (or GOOGLE_API_KEY), or use Vertex AI with GOOGLE_GENAI_USE_VERTEXAI=true")
	// ErrNoProject means Vertex AI was chosen without a project, an API key
	// or a base URL.
	ErrNoProject = errors.New("vertex AI needs GOOGLE_CLOUD_PROJECT (and usually GOOGLE_CLOUD_LOCATION) or an API key")
)
