package skills

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Bounds of discovery, so a huge or hostile folder costs little.
const (
	// MaxFolders is how many entries of one skills folder are looked at.
	MaxFolders = 100
	// MaxSkills is how many skills are kept in all.
	MaxSkills = 200
	// MaxFileSize bounds a SKILL.md; a larger one is skipped.
	MaxFileSize = 256 << 10
)

// FileName is the file that makes a folder a skill.
const FileName = "SKILL.md"

// projectDirs are the folders of a project root that hold skills, in
// precedence order.
var projectDirs = [...]string{".companion", ".gemini", ".claude", ".agents"}

// Location is one folder whose subfolders are skills.
type Location struct {
	Dir    string
	Source Source
	// Root, for a project location, is the workspace root its skills must
	// stay inside (after symlinks); "" for user locations.
	Root string
}

// ProjectLocations are the skill folders of each workspace root, the
// primary root first: .companion/skills, .gemini/skills, .claude/skills
// and .agents/skills.
func ProjectLocations(roots []string) []Location {
	var out []Location
	for _, root := range roots {
		for _, d := range projectDirs {
			out = append(out, Location{Dir: filepath.Join(root, d, "skills"), Source: Project, Root: root})
		}
	}
	return out
}

// UserLocations are the user's skill folders: companion's config directory
// (configDir, "" for none), then ~/.gemini, ~/.claude and ~/.agents under
// home ("" for none).
func UserLocations(configDir, home string) []Location {
	var out []Location
	if configDir != "" {
		out = append(out, Location{Dir: filepath.Join(configDir, "skills"), Source: User})
	}
	if home != "" {
		for _, d := range projectDirs[1:] {
			out = append(out, Location{Dir: filepath.Join(home, d, "skills"), Source: User})
		}
	}
	return out
}

// Locations are where a session under roots (the primary first) finds
// skills: in a trusted workspace the project's folders of every root,
// then the user's (see UserLocations); an untrusted workspace gets the
// user's only. The project's come first, so they win a name clash.
func Locations(roots []string, trusted bool, configDir, home string) []Location {
	var locs []Location
	if trusted {
		locs = ProjectLocations(roots)
	}
	return append(locs, UserLocations(configDir, home)...)
}

// Problem is a skill that was skipped, or a folder only partly read.
type Problem struct {
	Path string
	Err  error
}

func (p Problem) String() string { return p.Path + ": " + p.Err.Error() }

// Discover reads the skills of locs, earlier locations first: on a name
// clash the earlier skill wins and the later is recorded in its Shadowed.
// Pass project locations before user ones. Skipped skills are reported as
// problems, never fatal; a missing folder is no problem. The skills come
// back sorted by name.
func Discover(locs []Location) ([]Skill, []Problem) {
	d := discovery{byName: map[string]int{}, seen: map[string]bool{}}
	for _, loc := range locs {
		d.location(loc)
	}
	sort.Slice(d.skills, func(i, j int) bool { return d.skills[i].Name < d.skills[j].Name })
	return d.skills, d.problems
}

// discovery is the state of one Discover.
type discovery struct {
	skills   []Skill
	problems []Problem
	byName   map[string]int
	// seen holds the skill folders read, so a folder reached twice (a
	// symlinked skills folder) counts once.
	seen map[string]bool
}

func (d *discovery) problem(path string, err error) {
	d.problems = append(d.problems, Problem{Path: path, Err: err})
}

// location reads the skills directly under loc.Dir.
func (d *discovery) location(loc Location) {
	f, err := os.Open(loc.Dir)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			d.problem(loc.Dir, err)
		}
		return
	}
	entries, err := f.ReadDir(MaxFolders + 1)
	f.Close()
	if err != nil && !errors.Is(err, io.EOF) {
		d.problem(loc.Dir, err)
	}
	if len(entries) > MaxFolders {
		entries = entries[:MaxFolders]
		d.problem(loc.Dir, fmt.Errorf("more than %d entries; only %d were looked at", MaxFolders, MaxFolders))
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if len(d.skills) >= MaxSkills {
			d.problem(loc.Dir, fmt.Errorf("more than %d skills; the rest were skipped", MaxSkills))
			return
		}
		d.folder(loc, filepath.Join(loc.Dir, e.Name()))
	}
}

// folder reads one skill folder; a folder without SKILL.md is skipped
// quietly.
func (d *discovery) folder(loc Location, dir string) {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		d.problem(dir, err)
		return
	}
	if fi, err := os.Stat(real); err != nil || !fi.IsDir() || d.seen[real] {
		return
	}
	d.seen[real] = true
	if loc.Root != "" && !within(resolved(loc.Root), real) {
		d.problem(dir, errors.New("a project skill folder must stay inside the project; it leads to "+real))
		return
	}
	sk, _, err := load(real)
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	if err != nil {
		d.problem(filepath.Join(dir, FileName), err)
		return
	}
	sk.Source = loc.Source
	if i, ok := d.byName[sk.Name]; ok {
		d.skills[i].Shadowed = append(d.skills[i].Shadowed, Hidden{Path: sk.Path, Source: sk.Source})
		return
	}
	d.byName[sk.Name] = len(d.skills)
	d.skills = append(d.skills, sk)
}

// load reads and parses the SKILL.md of dir (absolute, resolved). The
// file must stay inside dir after symlinks and be at most MaxFileSize.
func load(dir string) (Skill, string, error) {
	path, err := filepath.EvalSymlinks(filepath.Join(dir, FileName))
	if err != nil {
		return Skill{}, "", err
	}
	if !within(dir, path) {
		return Skill{}, "", errors.New(FileName + " leads outside its folder")
	}
	f, err := os.Open(path)
	if err != nil {
		return Skill{}, "", err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return Skill{}, "", err
	}
	if len(data) > MaxFileSize {
		return Skill{}, "", fmt.Errorf("larger than %d KiB", MaxFileSize>>10)
	}
	sk, body, err := parse(data)
	if err != nil {
		return Skill{}, "", err
	}
	sk.Dir, sk.Path = dir, path
	return sk, body, nil
}

// within reports whether path is dir or below it (both clean, absolute).
func within(dir, path string) bool {
	return path == dir || strings.HasPrefix(path, strings.TrimSuffix(dir, string(filepath.Separator))+string(filepath.Separator))
}

// resolved is dir with symlinks resolved, or dir when that fails.
func resolved(dir string) string {
	if r, err := filepath.EvalSymlinks(dir); err == nil {
		return r
	}
	return filepath.Clean(dir)
}
