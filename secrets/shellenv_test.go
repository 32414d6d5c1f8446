package secrets

import (
	"slices"
	"testing"
)

func TestShellEnv(t *testing.T) {
	environ := []string{
		"PATH=/bin", "HOME=/home/u", "GEMINI_API_KEY=g-key-123456", "GOOGLE_API_KEY=x", "OPENAI_API_KEY=o",
		"GITHUB_TOKEN=t", "AWS_SECRET_ACCESS_KEY=a", "DB_PASSWORD=p", "mysql_pwd_password=p",
		"GOOGLE_APPLICATION_CREDENTIALS=/k.json", "DOCKER_CREDENTIALS=d", "API_KEY=k", "CLIENT_SECRET=s",
		"TOKENIZER=keep", "MY_KEY=s3cr3t-value-1", "EDITOR=vi", "NOEQUALS",
	}
	tests := []struct {
		name string
		f    EnvFilter
		want []string
	}{
		{"defaults", EnvFilter{},
			[]string{"PATH=/bin", "HOME=/home/u", "TOKENIZER=keep", "MY_KEY=s3cr3t-value-1", "EDITOR=vi", "NOEQUALS"}},
		{"include re-admits", EnvFilter{Include: []string{"github_token", "GEMINI_*"}},
			[]string{"PATH=/bin", "HOME=/home/u", "GEMINI_API_KEY=g-key-123456", "GITHUB_TOKEN=t", "TOKENIZER=keep",
				"MY_KEY=s3cr3t-value-1", "EDITOR=vi", "NOEQUALS"}},
		{"exclude drops more", EnvFilter{Exclude: []string{"EDITOR", "TOKEN*"}},
			[]string{"PATH=/bin", "HOME=/home/u", "MY_KEY=s3cr3t-value-1", "NOEQUALS"}},
		{"configured values", EnvFilter{Values: []string{"s3cr3t-value-1", ""}},
			[]string{"PATH=/bin", "HOME=/home/u", "TOKENIZER=keep", "EDITOR=vi", "NOEQUALS"}},
		{"include beats exclude and values", EnvFilter{Include: []string{"MY_KEY"}, Exclude: []string{"MY_*"}, Values: []string{"s3cr3t-value-1"}},
			[]string{"PATH=/bin", "HOME=/home/u", "TOKENIZER=keep", "MY_KEY=s3cr3t-value-1", "EDITOR=vi", "NOEQUALS"}},
		{"malformed glob matches nothing", EnvFilter{Exclude: []string{"[PATH"}},
			[]string{"PATH=/bin", "HOME=/home/u", "TOKENIZER=keep", "MY_KEY=s3cr3t-value-1", "EDITOR=vi", "NOEQUALS"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ShellEnv(environ, tt.f); !slices.Equal(got, tt.want) {
				t.Errorf("ShellEnv =\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}
