package shell

import "strings"

// sedBeyond flags sed -i (edits files in place), -f (a script file) and
// scripts holding the e, w and W commands or the s///e and s///w flags.
func sedBeyond(name string, args []word) string {
	var scripts []string
	explicit := false
	for i := 0; i < len(args); i++ {
		w := args[i]
		v := w.val
		switch {
		case !w.lit:
			return runTime
		case strings.HasPrefix(v, "--"):
			opt, val, glued := strings.Cut(v[2:], "=")
			switch {
			case opt == "":
				continue
			case strings.HasPrefix("in-place", opt), strings.HasPrefix("file", opt):
				return name + " --" + opt
			case strings.HasPrefix("expression", opt) && glued:
				explicit, scripts = true, append(scripts, val)
			case strings.HasPrefix("expression", opt) && i+1 < len(args):
				explicit, scripts = true, append(scripts, args[i+1].val)
				i++
			}
		case strings.HasPrefix(v, "-") && len(v) > 1:
			script, used, reason := sedShort(name, v[1:], args[i+1:])
			if reason != "" {
				return reason
			}
			if script != nil {
				explicit, scripts = true, append(scripts, *script)
			}
			i += used
		case !explicit && len(scripts) == 0:
			scripts = append(scripts, v)
		}
	}
	for _, s := range scripts {
		if sedScriptReaches(s) {
			return name + " script that runs commands or writes files (e, w, s///e, s///w)"
		}
	}
	return ""
}

// sedShort reads a cluster of sed's short options: the -e script (nil
// for none), how many following words the cluster used, or the reason it
// reaches.
func sedShort(name, cluster string, after []word) (*string, int, string) {
	for j := 0; j < len(cluster); j++ {
		switch cluster[j] {
		case 'i', 'f':
			return nil, 0, name + " -" + cluster[j:j+1]
		case 'e', 'l': // -e SCRIPT, -l N
			val, used := cluster[j+1:], 0
			if val == "" && len(after) > 0 {
				if !after[0].lit {
					return nil, 0, runTime
				}
				val, used = after[0].val, 1
			}
			if cluster[j] == 'l' {
				return nil, used, ""
			}
			return &val, used, ""
		}
	}
	return nil, 0, ""
}

// sedScriptReaches reports whether a sed script holds a command that runs
// programs or writes files. A script it cannot follow counts as reaching.
func sedScriptReaches(s string) bool {
	i := 0
	for i < len(s) {
		i = skipSedAddress(s, i)
		if i >= len(s) {
			return false
		}
		c := s[i]
		switch {
		case strings.IndexByte(" \t\n;{}!", c) >= 0:
			i++
		case c == 'e' || c == 'w' || c == 'W':
			return true
		case c == 's' || c == 'y':
			flags, next, ok := sedSubst(s, i+1)
			if !ok || (c == 's' && strings.ContainsAny(flags, "ewW")) {
				return true
			}
			i = next
		case strings.IndexByte("aicrR:btT#", c) >= 0:
			i = skipSedText(s, i+1, c)
		case strings.IndexByte("=dDgGhHlnNpPqQxzFlLqQ0123456789", c) >= 0:
			i++
		default:
			return true
		}
	}
	return false
}

// skipSedAddress skips a line address (numbers, $, /regex/, \cregexc,
// ranges and steps) starting at i.
func skipSedAddress(s string, i int) int {
	for i < len(s) {
		switch c := s[i]; {
		case c >= '0' && c <= '9', c == '$', c == ',', c == '~', c == '+':
			i++
		case c == '/' || c == '\\':
			delim := byte('/')
			if c == '\\' && i+1 < len(s) {
				delim = s[i+1]
				i++
			}
			_, i = sedPart(s, i+1, delim)
			for i < len(s) && (s[i] == 'I' || s[i] == 'M') {
				i++
			}
		default:
			return i
		}
	}
	return i
}

// sedSubst reads the parts of s/// or y/// starting at the delimiter at
// i: the flags after them and where the command ends.
func sedSubst(s string, i int) (string, int, bool) {
	if i >= len(s) || s[i] == '\n' || s[i] == '\\' {
		return "", 0, false
	}
	delim := s[i]
	_, i = sedPart(s, i+1, delim)
	_, i = sedPart(s, i, delim)
	if i > len(s) {
		return "", 0, false
	}
	end := i
	for end < len(s) && strings.IndexByte(";\n}", s[end]) < 0 {
		end++
	}
	return s[i:end], end, true
}

// sedPart returns the text up to the unescaped delimiter from i and the
// position after the delimiter (len(s)+1 when there is none).
func sedPart(s string, i int, delim byte) (string, int) {
	start := i
	for i < len(s) {
		switch s[i] {
		case '\\':
			i += 2
			continue
		case delim:
			return s[start:i], i + 1
		}
		i++
	}
	return s[start:], len(s) + 1
}

// skipSedText skips the argument of a text, file or label command: to
// the end of the line (a, i, c, r, R, #), or to ; for labels.
func skipSedText(s string, i int, cmd byte) int {
	stops := "\n"
	if strings.IndexByte(":btT", cmd) >= 0 {
		stops = ";\n"
	}
	for i < len(s) && strings.IndexByte(stops, s[i]) < 0 {
		if s[i] == '\\' {
			i++
		}
		i++
	}
	return i
}

// awkBeyond flags awk programs that run commands or write files (system,
// pipes, > redirection), program files and gawk's extension options.
func awkBeyond(name string, args []word) string {
	for i := 0; i < len(args); i++ {
		w := args[i]
		v := w.val
		switch {
		case !w.lit:
			return runTime
		case v == "--":
			continue
		case v == "-v" || v == "-F":
			i++
		case strings.HasPrefix(v, "-v") || strings.HasPrefix(v, "-F"):
		case strings.HasPrefix(v, "-"):
			return name + " " + v + " may load or write files"
		default:
			if strings.Contains(v, "system") || strings.ContainsAny(v, "|>") || strings.Contains(v, "@load") {
				return name + " program that runs commands or writes files"
			}
			return ""
		}
	}
	return ""
}
