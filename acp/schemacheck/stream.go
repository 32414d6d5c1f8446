package schemacheck

import (
	"fmt"
	"sort"
	"sync"
)

// Stream checks both directions of one ACP connection, line by line. It
// remembers the method of every request it has seen until the response
// comes back the other way, so results are checked against the right
// definition. Feed it every line of both directions in the order each
// direction was written; it is safe for concurrent use, so a reader
// goroutine per direction may share it.
type Stream struct {
	v *Validator

	// mu guards pending.
	mu sync.Mutex
	// pending maps requests not yet answered to their method.
	pending map[pendingKey]string
}

// pendingKey is a request id in the direction the request traveled.
type pendingKey struct {
	dir Direction
	id  string
}

// NewStream starts a Stream with no pending requests.
func (v *Validator) NewStream() *Stream {
	return &Stream{v: v, pending: map[pendingKey]string{}}
}

// Check validates one line traveling in dir (see Validator.Message) and
// updates the pending requests: a valid or invalid request is recorded, a
// response removes the request it answers. Reusing the id of a request
// still pending in the same direction fails with ErrUnmatchedResponse.
func (s *Stream) Check(dir Direction, line []byte) (Message, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	answered := pendingKey{}
	lookup := func(id string) (string, bool) {
		key := pendingKey{dir.Reverse(), id}
		method, ok := s.pending[key]
		if ok {
			answered = key
		}
		return method, ok
	}
	msg, err := s.v.Message(dir, line, lookup)
	if answered.dir != 0 {
		delete(s.pending, answered)
	}
	if msg.Kind == Request {
		key := pendingKey{dir, msg.ID}
		if prev, dup := s.pending[key]; dup {
			return msg, fmt.Errorf("schemacheck: %s request id %s reused while %s is pending: %w",
				dir, msg.ID, prev, ErrUnmatchedResponse)
		}
		s.pending[key] = msg.Method
	}
	return msg, err
}

// Pending lists the requests not yet answered, as "direction id method",
// sorted; a finished conversation should have none.
func (s *Stream) Pending() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, 0, len(s.pending))
	for k, method := range s.pending {
		out = append(out, fmt.Sprintf("%s %s %s", k.dir, k.id, method))
	}
	sort.Strings(out)
	return out
}
