package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"

	"companion/config"
	"companion/credentials"
	"companion/internal/cli"
)

// loginIntro is what `companion login` shows first.
const loginIntro = `Sign in to companion. How should it reach a model?
  1) A Gemini API key (create one at https://aistudio.google.com/apikey)
  2) Vertex AI (a Google Cloud project; uses your gcloud credentials)
  3) An OpenAI-compatible server (Ollama, vLLM, llama.cpp, LM Studio, OpenRouter, OpenAI)
`

// runLogin asks how to reach a model and keeps the answer: keys in the
// system keychain (else a file only the user can read), the rest in the
// user settings. Editors offer it as ACP's terminal authentication.
func runLogin(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	if len(args) > 0 {
		fmt.Fprintln(stderr, "companion login takes no arguments; it asks what it needs")
		return 2
	}
	cfg, err := config.Load(getenv)
	if err != nil {
		fmt.Fprintf(stderr, "companion: %v\n", err)
		return 1
	}
	p := &prompter{in: bufio.NewReader(stdin), out: stdout, file: stdin}
	fmt.Fprint(stdout, loginIntro)
	var msg string
	switch choice := p.ask("Choice [1]: "); choice {
	case "", "1":
		msg, err = loginGemini(p, cfg, getenv)
	case "2":
		msg, err = loginVertex(p, cfg)
	case "3":
		msg, err = loginOpenAI(p, cfg, getenv)
	default:
		err = fmt.Errorf("%q is not 1, 2 or 3", choice)
	}
	if err != nil {
		fmt.Fprintf(stderr, "companion login: %v\n", err)
		return 1
	}
	fmt.Fprintln(stdout, msg)
	return 0
}

func loginGemini(p *prompter, cfg config.Config, getenv func(string) string) (string, error) {
	key := p.secret("Gemini API key: ")
	if key == "" {
		return "", fmt.Errorf("no key given")
	}
	where, err := cli.Credentials(cfg, getenv).Set(credentials.GeminiAPIKey, key)
	if err != nil {
		return "", err
	}
	if err := config.SetSettings(cfg.SettingsPath, map[string]any{"provider": config.ProviderGemini, "vertexAI": false}); err != nil {
		return "", err
	}
	return "Signed in: the Gemini API key is kept in " + where + ".", nil
}

func loginVertex(p *prompter, cfg config.Config) (string, error) {
	project := p.ask("Google Cloud project: ")
	if project == "" {
		return "", fmt.Errorf("no project given")
	}
	location := p.ask("Location [global]: ")
	if location == "" {
		location = "global"
	}
	err := config.SetSettings(cfg.SettingsPath, map[string]any{"provider": config.ProviderGemini, "vertexAI": true,
		"project": project, "location": location})
	if err != nil {
		return "", err
	}
	return "Signed in: Vertex AI in " + project + " (" + location + "), written to " + cfg.SettingsPath +
		". companion uses your application-default credentials: run `gcloud auth application-default login` if you have not.", nil
}

func loginOpenAI(p *prompter, cfg config.Config, getenv func(string) string) (string, error) {
	base := p.ask("Server URL [http://localhost:11434/v1]: ")
	if base == "" {
		base = "http://localhost:11434/v1"
	}
	model := p.ask("Model (as the server names it): ")
	if model == "" {
		return "", fmt.Errorf("no model given")
	}
	key := p.secret("API key (empty if the server needs none): ")
	where := ""
	if key != "" {
		var err error
		if where, err = cli.Credentials(cfg, getenv).Set(credentials.OpenAIAPIKey, key); err != nil {
			return "", err
		}
	}
	err := config.SetSettings(cfg.SettingsPath, map[string]any{"provider": config.ProviderOpenAI, "model": model,
		"openai": map[string]any{"baseUrl": base}})
	if err != nil {
		return "", err
	}
	msg := "Signed in: " + model + " at " + base + ", written to " + cfg.SettingsPath + "."
	if where != "" {
		msg += " The key is kept in " + where + "."
	}
	return msg, nil
}

// runLogout forgets the keys `companion login` stored.
func runLogout(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	cfg, err := config.Load(getenv)
	if err == nil && len(args) > 0 {
		err = fmt.Errorf("logout takes no arguments")
	}
	store := cli.Credentials(cfg, getenv)
	for _, name := range []string{credentials.GeminiAPIKey, credentials.OpenAIAPIKey} {
		if err == nil {
			err = store.Delete(name)
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "companion logout: %v\n", err)
		return 1
	}
	fmt.Fprintln(stdout, "Signed out: the stored keys are gone. Keys in the environment or the settings file are left as they are.")
	return 0
}

// prompter reads answers, hiding what is typed for secrets when the input
// is a terminal.
type prompter struct {
	in   *bufio.Reader
	out  io.Writer
	file io.Reader
}

func (p *prompter) ask(q string) string {
	fmt.Fprint(p.out, q)
	line, _ := p.in.ReadString('\n')
	return strings.TrimSpace(line)
}

func (p *prompter) secret(q string) string {
	f, ok := p.file.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) || p.in.Buffered() > 0 {
		return p.ask(q)
	}
	fmt.Fprint(p.out, q)
	b, err := term.ReadPassword(int(f.Fd()))
	fmt.Fprintln(p.out)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}
