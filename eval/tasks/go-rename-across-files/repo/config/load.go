package config

import "os"

// Load reads the settings file at path (see ParseCfg for its format).
func Load(path string) (Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Config{}, err
	}
	return ParseCfg(string(data))
}
