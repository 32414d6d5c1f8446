package builtin

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
)

// infoExcludeFile returns root's .git/info/exclude, following a .git file
// ("gitdir: …", a worktree or submodule) to the repository's common
// directory; "" when root holds no repository.
func infoExcludeFile(root string) string {
	gitPath := filepath.Join(root, gitDir)
	fi, err := os.Stat(gitPath)
	if err != nil {
		return ""
	}
	dir := gitPath
	if !fi.IsDir() {
		data, err := os.ReadFile(gitPath)
		if err != nil {
			return ""
		}
		line, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:")
		if !ok {
			return ""
		}
		dir = strings.TrimSpace(line)
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(root, dir)
		}
		if common, err := os.ReadFile(filepath.Join(dir, "commondir")); err == nil {
			c := strings.TrimSpace(string(common))
			if !filepath.IsAbs(c) {
				c = filepath.Join(dir, c)
			}
			dir = c
		}
	}
	return filepath.Join(dir, "info", "exclude")
}

// globalExcludesFile returns the user's global excludes file as git finds
// it: core.excludesFile from the repository's, the user's or the XDG git
// configuration (the last one set wins), else $XDG_CONFIG_HOME/git/ignore.
// Included configuration files are not followed.
func globalExcludesFile(root string) string {
	home, _ := os.UserHomeDir()
	xdg := os.Getenv("XDG_CONFIG_HOME")
	if xdg == "" && home != "" {
		xdg = filepath.Join(home, ".config")
	}
	var configs []string
	if xdg != "" {
		configs = append(configs, filepath.Join(xdg, "git", "config"))
	}
	if home != "" {
		configs = append(configs, filepath.Join(home, ".gitconfig"))
	}
	configs = append(configs, filepath.Join(root, gitDir, "config"))
	file := ""
	for _, c := range configs {
		if v := configExcludesFile(c); v != "" {
			file = v
		}
	}
	switch {
	case file == "" && xdg != "":
		return filepath.Join(xdg, "git", "ignore")
	case strings.HasPrefix(file, "~/") && home != "":
		return filepath.Join(home, file[2:])
	}
	return file
}

// configExcludesFile reads core.excludesFile from one git configuration
// file; "" when it is not set there.
func configExcludesFile(file string) string {
	f, err := os.Open(file)
	if err != nil {
		return ""
	}
	defer f.Close()
	value, inCore := "", false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") {
			section, _, _ := strings.Cut(strings.Trim(line, "[]"), " ")
			inCore = strings.EqualFold(strings.TrimSpace(section), "core")
			continue
		}
		key, v, ok := strings.Cut(line, "=")
		if !inCore || !ok || !strings.EqualFold(strings.TrimSpace(key), "excludesfile") {
			continue
		}
		v = strings.TrimSpace(v)
		if i := strings.IndexAny(v, "#;"); i >= 0 && !strings.HasPrefix(v, `"`) {
			v = strings.TrimSpace(v[:i])
		}
		value = strings.Trim(v, `"`)
	}
	return value
}
