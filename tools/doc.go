// Package tools holds the Tool interface, the registry, path confinement and
// the built-in tools. It knows no wire protocol: what it needs from the editor
// (files, terminals, questions) it declares as narrow interfaces that front
// ends implement.
//
// It imports only its own subpackages tools/shell (shell line analysis)
// and tools/procgroup (process groups).
package tools
