// Package procgroup starts commands in process groups of their own and
// signals whole groups, so a command and everything it started stop
// together. The shell tool (foreground, background and file commands'
// !{}), MCP servers and hooks share it. On Windows a command starts in a
// new console process group and is stopped with its whole process tree
// (taskkill /T /F, which follows parent links, so it reaches what the
// command started while the command is alive); Alive sees only the
// command itself there. On other systems without process groups it falls
// back to the single process.
//
// On Linux, Start also puts each group under a guard that kills the whole
// group when companion dies, however it dies (exit, crash, kill -9, the
// editor going away). The guard is a sibling of the command, not its
// parent: the command stays companion's direct child and group leader, so
// its exit status, signals and standard streams are untouched, and the
// guard outlives the command's leader for as long as anything it left
// running remains in the group. The guard learns of companion's death
// from a lifeline pipe whose only writer is companion (end of file comes
// the moment the kernel closes a dead process's descriptors), not from a
// parent-death signal, which Linux sends when the forking thread ends
// rather than the process. It is a short bash script when bash is
// installed, else companion itself run as `companion __guard PGID`
// (GuardCommand, Guard). What a command leaves outside its group, such
// as a daemon that called setsid, is kept too: every command's
// environment carries a tag unique to this companion, and a keeper
// process (a bash script, or `companion __guard adopted`) kills every
// process holding it, and their descendants, when companion dies;
// companion also becomes a child subreaper at its first command, so
// orphans are re-parented to it, and it tells the keeper of each (see
// keeper). Under bubblewrap the sandbox's pid namespace and
// --die-with-parent do the same. Elsewhere commands are not guarded and
// outlive a companion that dies without stopping them.
//
// procgroup imports nothing of companion.
package procgroup
