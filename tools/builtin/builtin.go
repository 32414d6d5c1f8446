package builtin

import (
	"time"

	"companion/secrets"
	"companion/tools"
	"companion/tools/sandbox"
)

// ReadOnlyOptions configures the read-only built-in tools. Zero fields take
// the defaults given.
type ReadOnlyOptions struct {
	// RipgrepPath is the rg binary grep runs: "" looks up `rg` on PATH once,
	// on grep's first use; "-" never uses ripgrep (the Go search runs).
	RipgrepPath string
	// MaxLines is the most lines read_file returns per call (2000).
	MaxLines int
	// MaxLineLength is where read_file cuts a long line, in characters (2000).
	MaxLineLength int
	// MaxMediaBytes caps an image or PDF that read_file returns inline (10 MiB).
	MaxMediaBytes int64
	// MaxListEntries is the most entries list_directory shows (1000).
	MaxListEntries int
	// MaxGlobResults is the most paths glob shows (500).
	MaxGlobResults int
	// MaxGrepMatches is the most matching lines grep shows (200).
	MaxGrepMatches int
	// MaxGrepLineLength is where grep cuts a matching line, in characters (500).
	MaxGrepLineLength int
	// MaxGrepFileSize is the size above which grep skips a file (1 MiB).
	MaxGrepFileSize int64
	// Now is the clock glob uses to find recently changed files (time.Now).
	Now func() time.Time
}

// withDefaults fills the zero fields.
func (o ReadOnlyOptions) withDefaults() ReadOnlyOptions {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&o.MaxLines, 2000)
	def(&o.MaxLineLength, 2000)
	def(&o.MaxListEntries, 1000)
	def(&o.MaxGlobResults, 500)
	def(&o.MaxGrepMatches, 200)
	def(&o.MaxGrepLineLength, 500)
	if o.MaxMediaBytes <= 0 {
		o.MaxMediaBytes = 10 << 20
	}
	if o.MaxGrepFileSize <= 0 {
		o.MaxGrepFileSize = 1 << 20
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}

// ReadOnly returns the read-only built-in tools: read_file, list_directory,
// glob and grep.
func ReadOnly(opts ReadOnlyOptions) []tools.Tool {
	o := opts.withDefaults()
	return []tools.Tool{
		newReadFile(o),
		newListDirectory(o),
		newGlob(o),
		newGrep(o),
	}
}

// ExtraOptions configures web_fetch, write_todos and read_many_files. Zero
// fields take the defaults given.
type ExtraOptions struct {
	// AllowPrivate lets web_fetch reach loopback, private, link-local,
	// unique-local, CGNAT, unspecified and other non-public addresses (a
	// user setting; off by default).
	AllowPrivate bool
	// FetchTimeout bounds one web_fetch call, redirects and body included
	// (30 s).
	FetchTimeout time.Duration
	// MaxFetchBytes is the most of a response body web_fetch reads (5 MiB).
	MaxFetchBytes int64
	// MaxFetchText is where web_fetch cuts the text it returns, in bytes
	// (100 KiB).
	MaxFetchText int
	// MaxRedirects is the most redirects web_fetch follows (5).
	MaxRedirects int
	// UserAgent is web_fetch's User-Agent header (it names companion).
	UserAgent string
	// LookupIP resolves host names for web_fetch (nil: the system
	// resolver). Tests map names to addresses with it.
	LookupIP LookupFunc
	// Dial connects to an address web_fetch has checked (nil: a net.Dialer
	// that checks the socket address once more). Tests route "public"
	// addresses to a local server with it.
	Dial DialFunc
	// MaxTodos is the most items write_todos accepts (100).
	MaxTodos int
	// MaxReadFiles is the most files read_many_files reads per call (100).
	MaxReadFiles int
	// MaxReadBytes bounds the text read_many_files returns (512 KiB).
	MaxReadBytes int
	// Read holds the per-file limits read_many_files shares with read_file
	// (MaxLines, MaxLineLength, MaxMediaBytes; read_file's defaults).
	Read ReadOnlyOptions
}

// withDefaults fills the zero fields.
func (o ExtraOptions) withDefaults() ExtraOptions {
	if o.FetchTimeout <= 0 {
		o.FetchTimeout = 30 * time.Second
	}
	if o.MaxFetchBytes <= 0 {
		o.MaxFetchBytes = 5 << 20
	}
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&o.MaxFetchText, 100<<10)
	def(&o.MaxRedirects, 5)
	def(&o.MaxTodos, 100)
	def(&o.MaxReadFiles, 100)
	def(&o.MaxReadBytes, 512<<10)
	if o.UserAgent == "" {
		o.UserAgent = "companion (AI coding agent; web_fetch)"
	}
	o.Read = o.Read.withDefaults()
	return o
}

// Extras returns the built-in tools beyond the read-only ones: web_fetch,
// write_todos, read_many_files and ask_user.
func Extras(opts ExtraOptions) []tools.Tool {
	o := opts.withDefaults()
	return []tools.Tool{
		newWebFetch(o),
		newWriteTodos(o),
		newReadManyFiles(o),
		newAskUser(),
	}
}

// EditOptions configures the editing tools. Zero fields take the defaults
// given.
type EditOptions struct {
	// MaxFileBytes is the largest file replace and write_file edit (20 MiB).
	MaxFileBytes int64
	// FuzzyThreshold is the least similarity, in (0, 1], at which replace
	// accepts a fuzzy match for an old_string that matched neither exactly
	// nor ignoring whitespace (0.85). A value above 1 turns fuzzy matching
	// off; the closest text is still shown when nothing matched.
	FuzzyThreshold float64
}

// withDefaults fills the zero fields.
func (o EditOptions) withDefaults() EditOptions {
	if o.MaxFileBytes <= 0 {
		o.MaxFileBytes = 20 << 20
	}
	if o.FuzzyThreshold <= 0 {
		o.FuzzyThreshold = 0.85
	}
	return o
}

// Editing returns the file editing tools: replace and write_file. Both
// propose their change as a whole-file diff through Confirmation and
// implement Modifiable.
func Editing(opts EditOptions) []tools.Tool {
	o := opts.withDefaults()
	return []tools.Tool{
		newReplace(o),
		newWriteFile(o),
	}
}

// ShellOptions configures run_shell_command and the background process
// tools. Zero fields take the defaults given.
type ShellOptions struct {
	// Shell is the program that runs commands locally, as `Shell -c
	// command` (`cmd.exe /d /s /c`, `pwsh -NoProfile -NonInteractive
	// -Command` for those): "" means bash, or sh where bash is missing, and
	// %ComSpec% (cmd.exe) on Windows. Lines for shells other than bash and
	// sh are not parsed, so the policy asks about each (shell.AnalyzeFor).
	Shell string
	// InactivityTimeout kills a command that prints nothing for this long
	// (5 minutes).
	InactivityTimeout time.Duration
	// Timeout kills a command that runs longer than this; 0 means never.
	Timeout time.Duration
	// HeadBytes and TailBytes are how much of the start and the end of a
	// command's output the model gets (10 KiB and 20 KiB); the whole
	// output is saved to a file.
	HeadBytes, TailBytes int
	// StreamBytes is how much output is shown live while a local command
	// runs (64 KiB); the rest is in the result and the saved file.
	StreamBytes int
	// FlushInterval is how often live output is passed on (50 ms).
	FlushInterval time.Duration
	// KillGrace is how long a stopped command gets between SIGTERM and
	// SIGKILL (2 s).
	KillGrace time.Duration
	// TerminalOutputLimit is the output an editor terminal keeps (1 MiB).
	TerminalOutputLimit int
	// Env filters the environment local commands inherit; the zero value
	// drops the variables whose names look like credentials. Editor
	// terminals run in the editor's environment, which companion cannot
	// narrow (ACP's terminal/create only adds variables).
	Env secrets.EnvFilter
	// Sandbox, when its mode is not off, runs local commands under it and
	// runs them locally even when the editor offers terminals; nil is off.
	Sandbox *sandbox.Sandbox
}

// withDefaults fills the zero fields.
func (o ShellOptions) withDefaults() ShellOptions {
	setDuration := func(v *time.Duration, d time.Duration) {
		if *v <= 0 {
			*v = d
		}
	}
	setInt := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	setDuration(&o.InactivityTimeout, 5*time.Minute)
	setDuration(&o.FlushInterval, 50*time.Millisecond)
	setDuration(&o.KillGrace, 2*time.Second)
	setInt(&o.HeadBytes, 10<<10)
	setInt(&o.TailBytes, 20<<10)
	setInt(&o.StreamBytes, 64<<10)
	setInt(&o.TerminalOutputLimit, 1<<20)
	return o
}

// Shell returns run_shell_command and the tools that manage the commands
// it runs in the background: list_background_processes,
// read_background_output and kill_background_process. Background commands
// need Env.Background.
func Shell(opts ShellOptions) []tools.Tool {
	o := opts.withDefaults()
	return []tools.Tool{
		newRunShell(o),
		newListBackground(),
		newReadBackground(o),
		newKillBackground(),
	}
}
