// Package store keeps the agent's sessions on disk as append-only logs, so
// that a session comes back exactly after an editor restart or a crash. It
// owns <stateDir>/sessions; the caller passes stateDir (the user state
// directory, e.g. $XDG_STATE_HOME/companion). It imports only the standard
// library and knows nothing of models, tools or protocols: record types
// and payloads are the agent's.
//
// # Layout
//
//	<stateDir>/sessions/<project-key>/<sessionID>.jsonl   one log per session
//	<stateDir>/sessions/<project-key>/index.json          cache for List
//
// The project key is ProjectKey(cwd): a slug of the cwd's last element and
// a short hash of the whole path, e.g. "myrepo-1a2b3c4d".
//
// A log is JSON lines. Line 1 is the header
//
//	{"type":"session","version":1,"id":…,"cwd":…,"additionalDirectories":[…],"createdAt":…}
//
// and every further line is a Record, {"type":…,"time":RFC3339Nano,"data":…},
// with data written compacted. Only TypeTitle ("title") means something to
// the store: the last one gives the session's title.
//
// # Use
//
//	s := store.Open(stateDir, log)
//	w, err := s.Create(store.Meta{ID: id, Cwd: cwd})  // new session
//	w.Append(store.Record{Type: "user", Data: msg})    // as things happen
//	w.SetTitle("Fix the parser")                        // List shows it
//	w.Sync()                                            // at turn boundaries
//	w.Close()
//
//	meta, recs, err := s.Load(id)  // session/load: replay recs
//	w, err = s.Append(id)          // then keep writing
//
// Find locates a session by id alone; List pages through sessions, newest
// first, optionally for one cwd; Delete removes one. A Store allows one
// open Writer per session (ErrInUse otherwise). Store and Writer are safe
// for concurrent use.
//
// # Durability
//
// Each Writer.Append is one write(2) at the end of the file (O_APPEND), so
// a record survives the process being killed as soon as Append returns,
// and Sync (fsync) makes it survive a power loss. Create syncs the header
// and the folders. Appending never rewrites the file. After a crash the
// file ends at worst with one torn line: Load drops it (and skips any
// corrupt line elsewhere), logging a warning, and Store.Append cuts it off
// before writing again. A Writer whose write failed halfway refuses
// further work; reopening with Store.Append repairs the log. A Load while
// a Writer is appending sees a prefix of the log (a line being written
// counts as torn).
//
// Load reads the whole file at once and decodes the lines this package
// writes without a decoder (other well-formed JSON lines take the
// encoding/json path); record data is checked to be valid JSON and shares
// the file's buffer. Lines have no length limit.
//
// # Index
//
// List reads each project's index.json rather than the logs. An entry
// records the log's title, updatedAt (time of the last record), and the
// size, modification time and last complete line offset it was derived
// from. Create, SetTitle and Sync update the session's entry; List checks
// every entry against its log's size and mtime and rescans a changed log,
// from the recorded offset when it only grew, so an index that is missing,
// damaged, or stale (another process wrote, a crash came before Sync)
// heals itself. The index is rewritten atomically (temporary file and
// rename) and not fsynced: it holds nothing that is not in the logs.
// Two processes rewriting one index may lose an update; the next List
// repairs it.
package store
