package config

// SetSettings sets top-level settings in the settings file path, keeping
// every other setting and the file's comments. A value that is an object
// is merged into the object already there, one level deep, so setting
// {"openai": {"baseUrl": …}} keeps the openai headers the user wrote.
func SetSettings(path string, set map[string]any) error {
	return editSettings(path, func(doc map[string]any) error {
		for k, v := range set {
			newObj, isObj := v.(map[string]any)
			oldObj, hadObj := doc[k].(map[string]any)
			if isObj && hadObj {
				for kk, vv := range newObj {
					oldObj[kk] = vv
				}
				continue
			}
			doc[k] = v
		}
		return nil
	})
}
