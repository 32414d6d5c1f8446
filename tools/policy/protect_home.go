package policy

import (
	"os"
	"path/filepath"
	"strings"

	"companion/tools"
)

// homeSecretWhy says why a path in the user's home folder (rel, relative
// to it) holds what a shell line must not read or write unasked: the
// files that grant powers anywhere (protectedWhy: ~/.ssh, ~/.gitconfig,
// ~/.bashrc, the agents' settings and OAuth tokens under ~/.claude,
// ~/.gemini and ~/.config/companion) and the credential stores of common
// tools. "" when none.
func homeSecretWhy(rel string) string {
	if why := protectedWhy(rel); why != "" {
		return why
	}
	parts := strings.Split(strings.ToLower(filepath.ToSlash(rel)), "/")
	two := parts[0]
	if len(parts) > 1 {
		two += "/" + parts[1]
	}
	switch parts[0] {
	case ".aws", ".azure", ".gnupg", ".kube", ".docker", ".password-store", ".netrc", ".git-credentials",
		".pypirc", ".pgpass", ".vault-token", ".terraformrc", ".bash_history", ".zsh_history":
		return "it holds the user's credentials or history"
	}
	switch two {
	case ".config/gh", ".config/gcloud", ".config/hub", ".cargo/credentials", ".cargo/credentials.toml",
		".gem/credentials", ".terraform.d/credentials.tfrc.json", ".local/share/keyrings":
		return "it holds the user's credentials"
	}
	return ""
}

// homeSecret names why an argument that resolves (candidates: as written
// and as the kernel resolves it) outside the roots but into the user's
// home reaches a secret; "" otherwise. Inside the roots protectedWhy has
// already judged the path.
func (p *Policy) homeSecret(candidates []string) string {
	for _, abs := range candidates {
		if _, inside := p.roots.RootOf(abs); inside {
			continue
		}
		for _, home := range p.homes {
			if !tools.Within(home, abs) || abs == home {
				continue
			}
			rel, err := filepath.Rel(home, abs)
			if err != nil {
				continue
			}
			if why := homeSecretWhy(rel); why != "" {
				return "asked every time: ~/" + filepath.ToSlash(rel) + " is outside the workspace and " + why
			}
		}
	}
	return ""
}

// userHomes is the user's home folder as named and with links resolved.
func userHomes() []string {
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return nil
	}
	homes := []string{filepath.Clean(home)}
	if real, err := filepath.EvalSymlinks(home); err == nil && real != homes[0] {
		homes = append(homes, real)
	}
	return homes
}

// expandHome replaces a leading ~/, $HOME/ or ${HOME}/ (quoted or not) of
// a shell word by the home folder, which the line cannot change unasked
// (HOME set on it makes its commands Dynamic); ok is false for any other
// word.
func (p *Policy) expandHome(w string) (string, bool) {
	for _, prefix := range []string{"~/", "$HOME/", "${HOME}/", `"$HOME"/`, `"${HOME}"/`, `"$HOME/`, `"${HOME}/`} {
		rest, ok := strings.CutPrefix(w, prefix)
		if !ok {
			continue
		}
		if len(p.homes) == 0 {
			return "", false
		}
		home := p.homes[0]
		if strings.HasPrefix(prefix, `"`) && !strings.HasSuffix(prefix, `"/`) {
			rest = strings.TrimSuffix(rest, `"`)
		}
		return filepath.Join(home, rest), true
	}
	return "", false
}
