package sandbox

import "sync"

// ProbeResult is what a probe found: the backend that confines commands
// and why (Name is None only with an error), and the program it runs.
type ProbeResult struct {
	BackendInfo
	// Path is bwrap, the helper executable or sandbox-exec.
	Path string
}

// ProbeFunc picks the backend on this machine: the one force names (see
// BackendEnv), else the first that works; helper is the executable the
// Landlock backend re-executes ("" means the running one). SystemProbe
// is the real one; tests count or fake probes with their own.
type ProbeFunc func(force Backend, helper string) (ProbeResult, error)

// SystemProbe probes this machine: bubblewrap is run once (`bwrap …
// true`), the kernel is asked about Landlock, PATH for sandbox-exec.
func SystemProbe(force Backend, helper string) (ProbeResult, error) {
	eng, info, err := pick(force, helper)
	return ProbeResult{BackendInfo: info, Path: eng.path}, err
}

// Prober probes for a backend once and gives every Sandbox bound to it
// (Prober.New, Sandbox.Prober) the same answer: a process needs one, which
// its host makes and hands to the sandboxes of every session (shell tool,
// hooks, MCP servers) and to whatever reports the backend (initialize,
// /status). A forced backend or a helper other than the last asked is
// another question, probed once too. Nothing is probed until a sandbox
// needs the answer. Its zero value probes with SystemProbe; it is safe
// for concurrent use.
type Prober struct {
	probe ProbeFunc

	mu      sync.Mutex
	answers map[probeKey]*probeAnswer
}

// probeKey is what a probe depends on besides the machine.
type probeKey struct {
	force  Backend
	helper string
}

// probeAnswer is one probe, made once.
type probeAnswer struct {
	once   sync.Once
	result ProbeResult
	err    error
}

// NewProber returns a Prober that probes with probe; nil means
// SystemProbe.
func NewProber(probe ProbeFunc) *Prober {
	return &Prober{probe: probe}
}

// Probe returns the backend for force and helper, probing the first time
// they are asked about; later calls, concurrent ones too, get that
// answer. A nil Prober probes every time.
func (p *Prober) Probe(force Backend, helper string) (ProbeResult, error) {
	if p == nil {
		return SystemProbe(force, helper)
	}
	k := probeKey{force: force, helper: helper}
	p.mu.Lock()
	if p.answers == nil {
		p.answers = map[probeKey]*probeAnswer{}
	}
	a := p.answers[k]
	if a == nil {
		a = &probeAnswer{}
		p.answers[k] = a
	}
	p.mu.Unlock()
	a.once.Do(func() {
		probe := p.probe
		if probe == nil {
			probe = SystemProbe
		}
		a.result, a.err = probe(force, helper)
	})
	return a.result, a.err
}

// New returns a sandbox as the package's New does, whose backend p picks;
// a nil p gives one that probes on its own.
func (p *Prober) New(m Mode, network bool) *Sandbox {
	sb := New(m, network)
	sb.Prober = p
	return sb
}
