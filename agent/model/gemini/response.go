package gemini

import (
	"fmt"
	"strings"

	"google.golang.org/genai"

	"companion/agent/model"
)

// toChunk maps one streamed response to a chunk, or nil when it carries
// nothing companion uses.
func toChunk(resp *genai.GenerateContentResponse, newID func() string) *model.Chunk {
	if resp == nil {
		return nil
	}
	c := &model.Chunk{Usage: toUsage(resp.UsageMetadata)}
	if pf := resp.PromptFeedback; pf != nil && pf.BlockReason != "" && pf.BlockReason != genai.BlockedReasonUnspecified {
		c.FinishReason = model.FinishSafety
		c.FinishMessage = blockMessage(pf)
	}
	if len(resp.Candidates) > 0 && resp.Candidates[0] != nil {
		cand := resp.Candidates[0]
		if cand.Content != nil {
			for _, gp := range cand.Content.Parts {
				if gp == nil {
					continue
				}
				if p, ok := fromGenaiPart(gp, newID); ok {
					c.Parts = append(c.Parts, p)
				}
			}
		}
		if cand.FinishReason != "" && cand.FinishReason != genai.FinishReasonUnspecified {
			c.FinishReason, c.FinishMessage = finish(cand)
		}
	}
	if len(c.Parts) == 0 && c.FinishReason == model.FinishNone && c.Usage == nil {
		return nil
	}
	return c
}

// toUsage maps usage metadata; nil stays nil.
func toUsage(u *genai.GenerateContentResponseUsageMetadata) *model.Usage {
	if u == nil {
		return nil
	}
	usage := &model.Usage{
		PromptTokens:  int(u.PromptTokenCount),
		OutputTokens:  int(u.CandidatesTokenCount),
		ThoughtTokens: int(u.ThoughtsTokenCount),
		CachedTokens:  int(u.CachedContentTokenCount),
		TotalTokens:   int(u.TotalTokenCount),
	}
	if usage.TotalTokens == 0 {
		usage.TotalTokens = usage.PromptTokens + usage.OutputTokens + usage.ThoughtTokens
	}
	return usage
}

// finish normalises a candidate's finish reason and explains any reason
// other than a plain stop.
func finish(cand *genai.Candidate) (model.FinishReason, string) {
	r := cand.FinishReason
	switch r {
	case genai.FinishReasonStop:
		return model.FinishStop, ""
	case genai.FinishReasonMaxTokens:
		return model.FinishMaxTokens, "The response was cut off at the model's output token limit (MAX_TOKENS)."
	case genai.FinishReasonSafety, genai.FinishReasonRecitation, genai.FinishReasonBlocklist,
		genai.FinishReasonProhibitedContent, genai.FinishReasonSPII, genai.FinishReasonImageSafety,
		genai.FinishReasonImageProhibitedContent, genai.FinishReasonImageRecitation:
		return model.FinishSafety, fmt.Sprintf("Gemini stopped the response because %s (%s).",
			reasonPhrase(string(r)), withCategories(string(r), cand.SafetyRatings))
	default:
		msg := fmt.Sprintf("Gemini stopped the response early (%s).", r)
		if cand.FinishMessage != "" {
			msg = fmt.Sprintf("Gemini stopped the response early (%s: %s).", r, model.OneLine(cand.FinishMessage))
		}
		return model.FinishOther, msg
	}
}

// blockMessage explains a prompt that was blocked before any answer.
func blockMessage(pf *genai.GenerateContentResponsePromptFeedback) string {
	detail := withCategories(string(pf.BlockReason), pf.SafetyRatings)
	if pf.BlockReasonMessage != "" {
		detail += ": " + model.OneLine(pf.BlockReasonMessage)
	}
	return fmt.Sprintf("Gemini blocked the prompt because %s (%s).", reasonPhrase(string(pf.BlockReason)), detail)
}

// reasonPhrase says in words why content was blocked.
func reasonPhrase(reason string) string {
	switch reason {
	case "SAFETY":
		return "the safety filters flagged it"
	case "RECITATION":
		return "it recited existing material too closely"
	case "BLOCKLIST":
		return "it contained blocklisted terms"
	case "PROHIBITED_CONTENT":
		return "it may contain prohibited content"
	case "SPII":
		return "it may contain sensitive personal information"
	case "IMAGE_SAFETY":
		return "the safety filters flagged an image"
	case "IMAGE_PROHIBITED_CONTENT":
		return "an image may contain prohibited content"
	case "IMAGE_RECITATION":
		return "an image recited existing material too closely"
	case "JAILBREAK":
		return "it looked like an attempt to bypass the safety rules"
	case "MODEL_ARMOR":
		return "Model Armor flagged it"
	default:
		return "of the content policy"
	}
}

// withCategories appends the blocked safety categories to a reason.
func withCategories(reason string, ratings []*genai.SafetyRating) string {
	var cats []string
	for _, r := range ratings {
		if r != nil && r.Blocked && r.Category != "" {
			cats = append(cats, string(r.Category))
		}
	}
	if len(cats) == 0 {
		return reason
	}
	return reason + " in " + strings.Join(cats, ", ")
}
