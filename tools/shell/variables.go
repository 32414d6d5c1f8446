package shell

import "strings"

// riskyVar reports whether setting the variable changes which programs or
// code run: the search path, preloaded libraries, shell start-up files,
// exported functions, the commands git, pagers and editors run, and the
// folders and options through which build and test tools find their
// configuration, plugins, compilers and wrappers (HOME=dir git status runs
// dir/.gitconfig's core.fsmonitor; npm_config_script_shell, GOFLAGS,
// RUSTC_WRAPPER, PYTEST_ADDOPTS, KUBECONFIG run other programs).
func riskyVar(name string) bool {
	if harmlessVar(name) { // GIT_AUTHOR_NAME, CARGO_TERM_COLOR despite their prefixes
		return false
	}
	switch name {
	case "PATH", "BASH_ENV", "ENV", "PROMPT_COMMAND",
		"PS4", "SHELLOPTS", "BASHOPTS", "IFS", "CDPATH", "PAGER", "MANPAGER", "EDITOR", "VISUAL",
		"SSH_ASKPASS", "LESSOPEN", "LESSCLOSE", "PYTHONPATH", "PYTHONSTARTUP", "NODE_OPTIONS",
		"PERL5OPT", "PERL5LIB", "RUBYOPT", "JAVA_TOOL_OPTIONS":
		return true
	}
	if configVar(name) {
		return true
	}
	// GIT_*: GIT_SSH_COMMAND, GIT_EXTERNAL_DIFF, GIT_CONFIG_*, GIT_DIR...
	// can all make git run other programs; LD_* and DYLD_* load libraries.
	for _, prefix := range []string{"GIT_", "BASH_FUNC_", "LD_", "DYLD_", "CARGO_", "YARN_"} {
		if strings.HasPrefix(name, prefix) {
			return true
		}
	}
	lower := strings.ToLower(name)
	return strings.HasPrefix(lower, "npm_config_") || strings.HasPrefix(lower, "pnpm_config_")
}

// configVar reports whether the variable names a folder, file or option
// string from which a common tool reads what to run: a home or config
// folder, a compiler or wrapper, extra options or plugins.
func configVar(name string) bool {
	switch name {
	case "HOME", "XDG_CONFIG_HOME", "ZDOTDIR", "SHELL", "CURL_HOME", "WGETRC",
		"GOFLAGS", "GOENV", "GOROOT", "GOTOOLCHAIN", "PKG_CONFIG", "CC", "CXX", "CPP", "LD", "AR",
		"RUSTC", "RUSTC_WRAPPER", "RUSTC_WORKSPACE_WRAPPER", "RUSTDOC", "RUSTFLAGS", "RUSTUP_HOME",
		"MAKEFLAGS", "MFLAGS", "MAKEFILES", "PYTEST_ADDOPTS", "PYTEST_PLUGINS", "PYTHONHOME",
		"PYTHONUSERBASE", "PYTHONWARNINGS", "PYTHONBREAKPOINT", "NODE_PATH", "PERLLIB", "PERL5DB",
		"RUBYLIB", "BUNDLE_GEMFILE", "GEM_HOME", "GEM_PATH", "LESS", "LESSKEY", "LESSKEYIN",
		"LESSEDIT", "MANOPT", "BROWSER", "GH_BROWSER", "GH_EDITOR", "GH_PAGER", "SUDO_EDITOR",
		"FCEDIT", "KUBE_EDITOR", "SYSTEMD_PAGER", "SYSTEMD_EDITOR", "TAR_OPTIONS", "ZIPOPT",
		"RSYNC_RSH", "RSYNC_CONNECT_PROG", "GCONV_PATH", "OPENSSL_CONF", "OPENSSL_ENGINES",
		"OPENSSL_MODULES", "KUBECONFIG", "DOCKER_HOST", "DOCKER_CONTEXT", "DOCKER_CONFIG",
		"_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "MAVEN_OPTS", "MAVEN_ARGS", "GRADLE_OPTS",
		"GRADLE_USER_HOME", "CLASSPATH", "DOTNET_STARTUP_HOOKS", "HTTP_PROXY", "HTTPS_PROXY",
		"ALL_PROXY", "http_proxy", "https_proxy", "all_proxy":
		return true
	}
	return false
}

// unlistedVar reports whether a variable set for a command may change what
// the command does although no list here says so. Tools read search paths,
// plugins, wrappers, start-up code and option strings from the environment
// (GOCACHEPROG, LUA_INIT, PHPRC, JAVA_HOME, GLIBC_TUNABLES…) and no list
// of them is ever complete, so every name written the environment's way
// (no lower-case letter) counts, except those known to change only a
// command's output or its build target. A command run with one is not
// covered by a rule naming the program (Beyond); a name with a lower-case
// letter is a shell variable (line, f, count).
func unlistedVar(name string) bool {
	return name != "" && strings.ToUpper(name) == name && !harmlessVar(name) && !riskyVar(name)
}

// harmlessVar reports whether the variable is one that commands models
// commonly set and that changes only how a command formats its output or
// what it builds for, never which program or file of code it loads.
func harmlessVar(name string) bool {
	if strings.HasPrefix(name, "LC_") {
		return true
	}
	switch name {
	case "LANG", "LANGUAGE", "TZ",
		"TERM", "COLUMNS", "LINES", "NO_COLOR", "FORCE_COLOR", "CLICOLOR", "CLICOLOR_FORCE",
		"CI", "NODE_ENV", "SOURCE_DATE_EPOCH",
		"GOOS", "GOARCH", "GOARM", "GOAMD64", "CGO_ENABLED", "GOMAXPROCS", "GOTRACEBACK", "GOGC", "GOMEMLIMIT",
		"RUST_BACKTRACE", "RUST_LOG", "CARGO_TERM_COLOR",
		"PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE", "PYTHONHASHSEED", "PYTHONIOENCODING", "PYTHONUTF8",
		"GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_AUTHOR_DATE", "GIT_COMMITTER_NAME",
		"GIT_COMMITTER_EMAIL", "GIT_COMMITTER_DATE", "GIT_TERMINAL_PROMPT":
		return true
	}
	return false
}

// setWith is the Beyond text of a command run with an unlisted variable set.
func setWith(name string) string {
	return "with " + name + " set"
}
