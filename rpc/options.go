package rpc

import (
	"log/slog"
	"time"
)

// Framing selects how messages are delimited on the byte stream.
type Framing int

const (
	// Newline frames each message as one compact JSON object ending in "\n",
	// as ACP does on stdio. Readers accept "\r\n" and skip blank lines.
	Newline Framing = iota
	// ContentLength frames each message with LSP-style headers
	// ("Content-Length: N\r\n\r\n" followed by N bytes of JSON).
	ContentLength
)

// String returns the framing's name for logs.
func (f Framing) String() string {
	switch f {
	case Newline:
		return "newline"
	case ContentLength:
		return "content-length"
	}
	return "unknown"
}

// Defaults applied by NewConn to zero Options fields.
const (
	// DefaultMaxMessageBytes is the largest message read when
	// Options.MaxMessageBytes is 0 (32 MiB, the ACP TypeScript SDK's limit).
	DefaultMaxMessageBytes = 32 << 20
	// DefaultNotificationQueue is the notification queue length used when
	// Options.NotificationQueue is 0.
	DefaultNotificationQueue = 1024
	// DefaultDrainTimeout is how long requests in flight may take to answer
	// after the input ends, when Options.DrainTimeout is 0.
	DefaultDrainTimeout = 2 * time.Second
)

// Options configures a Conn. The zero value is usable: newline framing,
// 32 MiB messages, a queue of 1024 notifications and no logging.
type Options struct {
	// Framing is the wire framing of both directions.
	Framing Framing
	// MaxMessageBytes bounds one incoming message; longer ones are skipped
	// without being buffered and answered with -32600. 0 means 32 MiB.
	MaxMessageBytes int
	// NotificationQueue is how many incoming notifications may wait for the
	// notification goroutine before the reader blocks. 0 means 1024.
	NotificationQueue int
	// DrainTimeout bounds how long, once the input has ended, requests in
	// flight (cancelled at that moment) may take to send their answers
	// before the output closes. 0 means 2 s.
	DrainTimeout time.Duration
	// Inline names methods served on the reading goroutine, in arrival
	// order, before the next message is read: quick requests (ACP's
	// initialize) and notifications (session/cancel, context updates) whose
	// effect later requests must find. Their handlers must not block.
	Inline []string
	// Logger receives every message at Debug level and problems at Warn or
	// Error. nil discards.
	Logger *slog.Logger
	// Redact, when set, rewrites each outgoing response and notification
	// (its encoded JSON) before it is framed: companion replaces secret
	// values there. Requests this side sends are left alone, since the
	// peer acts on them verbatim (a file's new content). The result must
	// still be one JSON value.
	Redact func([]byte) []byte
}

// withDefaults returns o with zero fields replaced by their defaults.
func (o Options) withDefaults() Options {
	if o.MaxMessageBytes <= 0 {
		o.MaxMessageBytes = DefaultMaxMessageBytes
	}
	if o.NotificationQueue <= 0 {
		o.NotificationQueue = DefaultNotificationQueue
	}
	if o.DrainTimeout <= 0 {
		o.DrainTimeout = DefaultDrainTimeout
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return o
}
