// Package shell reads shell command lines without running them: it finds
// every simple command a line would run (through pipelines, lists,
// substitutions, compound commands, functions and wrappers such as env,
// timeout, sudo, xargs, find -exec and bash -c) and the files it would write
// by redirection, so a permission policy can judge the line command by
// command. What it cannot know (a program named at run time, a value bash
// evaluates as code, a write after cd) it marks as unknown, and it flags
// options through which a program reaches beyond its name (git -c, sed -i,
// find -delete), among them an interpreter's code given otherwise than as a
// script file (python3 -c, a here-document, node -r), and the leading words
// that choose the module an interpreter runs (python3 -m pytest), which a
// rule must name.
//
// It also says which shell runs lines on this machine and how a line is
// handed to it (Local, Argv, SetCommandLine), so the shell tool and hooks
// start cmd.exe, PowerShell and the bash family the same way.
//
// Parsing is done by mvdan.cc/sh/v3 in its Bash dialect. The package imports
// nothing of companion's own (package tools imports it, so it cannot import
// tools back); its Command has the same shape as tools.ShellCommand and
// converts to it directly.
package shell
