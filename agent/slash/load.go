package slash

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/BurntSushi/toml"
)

// maxFileSize caps a command file.
const maxFileSize = 1 << 20

// Command is one slash command defined by a file.
type Command struct {
	// Name is the command's name without the slash: the file's path under
	// the commands folder, without .toml, folders joined by ':'
	// (git/commit.toml is "git:commit").
	Name string
	// Description is shown in the editor's command list.
	Description string
	// Hint describes the arguments: "args" when the prompt uses {{args}},
	// empty otherwise.
	Hint string
	// Path is the file the command was read from.
	Path string
	// Prompt is the prompt template Expand renders.
	Prompt string
}

// file is the TOML shape of a command file.
type file struct {
	Description string `toml:"description"`
	Prompt      string `toml:"prompt"`
}

// Load reads the commands under userDir/commands and
// projectRoot/.companion/commands (either may be empty), sorted by name. A
// project command replaces a user command of the same name. Files that
// cannot be used are skipped and reported, one error each naming the file;
// a missing folder is not an error. Symbolic links to folders are not
// followed.
func Load(projectRoot, userDir string) ([]Command, []error) {
	return LoadFolders(commandDirs(projectRoot, userDir))
}

// commandDirs lists the folders to read, the one that wins last.
func commandDirs(projectRoot, userDir string) []string {
	var dirs []string
	if userDir != "" {
		dirs = append(dirs, filepath.Join(userDir, "commands"))
	}
	if projectRoot != "" {
		dirs = append(dirs, filepath.Join(projectRoot, ".companion", "commands"))
	}
	return dirs
}

// loadDir reads every .toml file under dir.
func loadDir(dir string) (map[string]Command, []error) {
	cmds := map[string]Command{}
	var errs []error
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if path == dir && errors.Is(err, fs.ErrNotExist) {
				return fs.SkipAll
			}
			errs = append(errs, err)
			return nil
		}
		if d.IsDir() || !strings.HasSuffix(d.Name(), ".toml") {
			return nil
		}
		c, err := loadFile(dir, path)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", path, err))
			return nil
		}
		cmds[c.Name] = c
		return nil
	})
	if err != nil {
		errs = append(errs, err)
	}
	return cmds, errs
}

// loadFile reads one command file found under dir.
func loadFile(dir, path string) (Command, error) {
	rel, err := filepath.Rel(dir, path)
	if err != nil {
		return Command{}, err
	}
	name, err := commandName(rel)
	if err != nil {
		return Command{}, err
	}
	info, err := os.Stat(path)
	if err != nil {
		return Command{}, err
	}
	if info.Size() > maxFileSize {
		return Command{}, fmt.Errorf("%w: %d bytes (at most %d)", ErrTooLarge, info.Size(), maxFileSize)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return Command{}, err
	}
	var f file
	if _, err := toml.Decode(string(data), &f); err != nil {
		return Command{}, fmt.Errorf("%w: %w", ErrBadTOML, err)
	}
	if strings.TrimSpace(f.Prompt) == "" {
		return Command{}, ErrNoPrompt
	}
	if _, err := parseTemplate(f.Prompt); err != nil {
		return Command{}, err
	}
	c := Command{Name: name, Description: f.Description, Path: path, Prompt: f.Prompt}
	if c.Description == "" {
		c.Description = "Custom command from " + filepath.ToSlash(rel)
	}
	if strings.Contains(f.Prompt, argsPlaceholder) {
		c.Hint = "args"
	}
	return c, nil
}

// commandName turns a path relative to the commands folder into a command
// name: git/commit.toml is git:commit.
func commandName(rel string) (string, error) {
	parts := strings.Split(filepath.ToSlash(strings.TrimSuffix(rel, ".toml")), "/")
	for _, p := range parts {
		if p == "" || strings.ContainsRune(p, ':') || strings.ContainsFunc(p, unicode.IsSpace) {
			return "", fmt.Errorf("%w: %q", ErrBadName, rel)
		}
	}
	return strings.Join(parts, ":"), nil
}
