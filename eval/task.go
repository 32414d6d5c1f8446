package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// Task is one folder of the suite: repo/ (the starting repository),
// prompt.txt, check.sh and an optional task.json; outside/, when present,
// is copied beside the repository so a check can see that nothing outside
// the task was touched.
type Task struct {
	Name string `json:"name"`
	// Dir is the task's folder.
	Dir string `json:"-"`
	// Prompt is prompt.txt's text.
	Prompt string `json:"-"`
	Meta
}

// Meta is task.json: what a task is about and how to run it.
type Meta struct {
	// Languages the task touches: go, python, typescript, javascript, shell.
	Languages []string `json:"languages"`
	// Skill is what the task measures, in a few words.
	Skill string `json:"skill"`
	// ApprovalMode overrides the runner's --approval-mode for this task.
	ApprovalMode string `json:"approval_mode,omitempty"`
}

// loadTasks reads every task folder under dir whose name matches one of
// the comma-separated globs in pattern (all when pattern is empty), sorted
// by name.
func loadTasks(dir, pattern string) ([]Task, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("read the task folder: %w", err)
	}
	var tasks []Task
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		ok, err := matches(e.Name(), pattern)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		t, err := loadTask(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		tasks = append(tasks, t)
	}
	slices.SortFunc(tasks, func(a, b Task) int { return strings.Compare(a.Name, b.Name) })
	return tasks, nil
}

// matches reports whether name matches one of the comma-separated globs.
func matches(name, pattern string) (bool, error) {
	if strings.TrimSpace(pattern) == "" {
		return true, nil
	}
	for _, p := range strings.Split(pattern, ",") {
		ok, err := path.Match(strings.TrimSpace(p), name)
		if err != nil {
			return false, fmt.Errorf("--tasks %q: %w", p, err)
		}
		if ok {
			return true, nil
		}
	}
	return false, nil
}

// loadTask reads one task folder and checks that it has what a run needs.
func loadTask(dir string) (Task, error) {
	t := Task{Name: filepath.Base(dir), Dir: dir}
	prompt, err := os.ReadFile(filepath.Join(dir, "prompt.txt"))
	if err != nil {
		return t, fmt.Errorf("task %s: %w", t.Name, err)
	}
	t.Prompt = strings.TrimSpace(string(prompt))
	if t.Prompt == "" {
		return t, fmt.Errorf("task %s: prompt.txt is empty", t.Name)
	}
	for _, need := range []string{"check.sh", "repo"} {
		if _, err := os.Stat(filepath.Join(dir, need)); err != nil {
			return t, fmt.Errorf("task %s: %w", t.Name, err)
		}
	}
	meta, err := os.ReadFile(filepath.Join(dir, "task.json"))
	if errors.Is(err, fs.ErrNotExist) {
		return t, nil
	}
	if err != nil {
		return t, fmt.Errorf("task %s: %w", t.Name, err)
	}
	dec := json.NewDecoder(strings.NewReader(string(meta)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&t.Meta); err != nil {
		return t, fmt.Errorf("task %s: task.json: %w", t.Name, err)
	}
	return t, nil
}

// copyTree copies the regular files, folders and symbolic links under src
// to dst, keeping the files' permission bits (check scripts and the
// repositories' scripts stay executable).
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case info.Mode()&fs.ModeSymlink != 0:
			link, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(link, target)
		case info.Mode().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			return os.WriteFile(target, data, info.Mode().Perm())
		}
		return nil
	})
}
