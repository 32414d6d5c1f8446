package sandbox

import (
	"fmt"
	"path/filepath"
	"strings"
)

// seatbeltProfile is the sandbox-exec profile (macOS) for mode m and its
// parameters, KEY=VALUE for -D: everything may be read; writes are denied
// save to tmp (the command's TMPDIR), to the null-like devices and the
// terminal, and in workspace-write to the roots minus their protected
// paths (denied whether they exist yet or not: Seatbelt matches paths;
// the .git entry itself is denied, so it is neither renamed, removed nor
// replaced, while what is inside it stays writable).
// Without network, IP connections, listening and binding are denied;
// local (Unix) sockets stay. Paths travel as parameters, never inside the
// profile text, so no path can change the profile.
func seatbeltProfile(m Mode, network bool, roots []string, tmp string) (string, []string) {
	var b strings.Builder
	params := []string{"TMP=" + tmp}
	b.WriteString("(version 1)\n(allow default)\n(deny file-write*)\n")
	b.WriteString("(allow file-write* (subpath (param \"TMP\")))\n")
	b.WriteString("(allow file-write-data (literal \"/dev/null\") (literal \"/dev/zero\") (literal \"/dev/dtracehelper\") (regex #\"^/dev/tty\"))\n")
	if m == WorkspaceWrite && len(roots) > 0 {
		b.WriteString("(allow file-write*")
		for i, r := range roots {
			key := fmt.Sprintf("ROOT_%d", i)
			params = append(params, key+"="+r)
			fmt.Fprintf(&b, "\n  (subpath (param %q))", key)
		}
		b.WriteString(")\n(deny file-write*")
		for i, r := range roots {
			for j, p := range protected {
				key := fmt.Sprintf("ROOT_%d_PROTECTED_%d", i, j)
				params = append(params, key+"="+filepath.Join(r, p))
				kind := "subpath"
				if p == ".git" || p == ".git/config" || p == ".git/commondir" || p == ".git/index" {
					kind = "literal"
				}
				fmt.Fprintf(&b, "\n  (%s (param %q))", kind, key)
			}
		}
		b.WriteString(")\n")
	}
	if !network {
		b.WriteString("(deny network-outbound (remote ip \"*:*\"))\n")
		b.WriteString("(deny network-inbound (local ip \"*:*\"))\n")
		b.WriteString("(deny network-bind (local ip \"*:*\"))\n")
	}
	return b.String(), params
}

// seatbeltCommand is sandbox-exec's command line for argv: the profile,
// its parameters, then argv run through env with TMPDIR set to tmp.
func seatbeltCommand(sandboxExec string, m Mode, network bool, roots []string, tmp string, argv []string) []string {
	profile, params := seatbeltProfile(m, network, roots, tmp)
	out := []string{sandboxExec, "-p", profile}
	for _, p := range params {
		out = append(out, "-D", p)
	}
	out = append(out, "/usr/bin/env", "TMPDIR="+tmp)
	return append(out, argv...)
}
