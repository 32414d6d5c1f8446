package memory

import (
	"path/filepath"
	"slices"

	"companion/tools"
)

// Touch is called when a tool reads or edits a file in dir (absolute). When
// dir lies below the session root, the instruction files of dir and of the
// directories between the session root and dir that are not loaded yet are
// loaded, and added is their rendered text for the agent to put in the
// conversation; changed says there was any. Each file is added once; Text
// includes the added files from then on.
func (m *Memory) Touch(dir string) (added string, changed bool) {
	if !filepath.IsAbs(dir) {
		return "", false
	}
	dir = filepath.Clean(dir)
	if dir == m.session || !tools.Within(m.session, dir) {
		return "", false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if !slices.Contains(m.touched, dir) {
		m.touched = append(m.touched, dir)
	}
	l := newLoader(m.opts, m.project, m.st)
	var entries []entry
	for _, d := range pathDown(m.session, dir)[1:] {
		entries = append(entries, l.loadDir(d, scopeProject)...)
	}
	if len(entries) == 0 {
		return "", false
	}
	return render(entries), true
}
