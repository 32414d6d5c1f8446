package agent

import "companion/agent/model"

// maskStep is how many user turns the masking boundary moves at once.
const maskStep = 8

// maskSettled masks huge old function outputs (maskOldOutputs) on a
// boundary that moves maskStep user contents at a time instead of with
// every request. Masking rewrites history the model has already seen, and
// every rewrite ends the prefix a provider can serve from its cache; on a
// coarse boundary most consecutive requests keep the same prefix, at the
// cost of up to maskStep more unmasked outputs in the window.
func maskSettled(cs []model.Content) []model.Content {
	users := 0
	for _, c := range cs {
		if c.Role == model.RoleUser {
			users++
		}
	}
	settled := (users - 2) / maskStep * maskStep
	if settled <= 0 {
		return cs
	}
	// cut ends just after user content number settled+2, so that
	// maskOldOutputs, which spares the last two user contents it is
	// given, masks exactly the first settled ones.
	cut, seen := len(cs), 0
	for i, c := range cs {
		if c.Role == model.RoleUser {
			seen++
			if seen == settled+2 {
				cut = i + 1
				break
			}
		}
	}
	return append(maskOldOutputs(cs[:cut]), cs[cut:]...)
}
