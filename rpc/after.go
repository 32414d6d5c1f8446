package rpc

import (
	"context"
	"sync"
)

// afterKey keys the after-reply hooks in a request's context.
type afterKey struct{}

// afterReply holds functions to run once a request's response is written.
type afterReply struct {
	// mu guards ran and fns.
	mu  sync.Mutex
	ran bool
	fns []func()
}

// withAfterReply gives a request's context a place for AfterReply hooks.
func withAfterReply(ctx context.Context) (context.Context, *afterReply) {
	a := &afterReply{}
	return context.WithValue(ctx, afterKey{}, a), a
}

// AfterReply arranges for fn to run right after the response to the
// request whose handler received ctx has been written, on that request's
// goroutine: for notifications that must follow the answer (ACP's available
// commands after session/new). Outside a request handler, or once the
// response is written, fn runs at once.
func AfterReply(ctx context.Context, fn func()) {
	a, ok := ctx.Value(afterKey{}).(*afterReply)
	if !ok {
		fn()
		return
	}
	a.mu.Lock()
	if a.ran {
		a.mu.Unlock()
		fn()
		return
	}
	a.fns = append(a.fns, fn)
	a.mu.Unlock()
}

// run calls the hooks in the order they were added; a panicking hook is
// reported to onPanic and does not stop the others.
func (a *afterReply) run(onPanic func(p any)) {
	a.mu.Lock()
	fns := a.fns
	a.fns, a.ran = nil, true
	a.mu.Unlock()
	for _, fn := range fns {
		func() {
			defer func() {
				if p := recover(); p != nil {
					onPanic(p)
				}
			}()
			fn()
		}()
	}
}
