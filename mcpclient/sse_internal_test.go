package mcpclient

import (
	"strings"
	"testing"
)

func TestReadEvents(t *testing.T) {
	tests := []struct {
		name, stream string
		want         []string // name|id|data of each event
	}{
		{"one message", "data: {}\n\n", []string{"message||{}"}},
		{"named, with id", "event: endpoint\nid: 7\ndata: /m?s=1\n\n", []string{"endpoint|7|/m?s=1"}},
		{"multi-line data", "data: a\ndata: b\n\n", []string{"message||a\nb"}},
		{"comments and CRLF", ": ping\r\ndata:x\r\n\r\n", []string{"message||x"}},
		{"id carries over", "id: 1\ndata: a\n\ndata: b\n\n", []string{"message|1|a", "message|1|b"}},
		{"unterminated event dropped", "data: a\n\ndata: b", []string{"message||a"}},
		{"blank lines only", "\n\n\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			err := readEvents(strings.NewReader(tt.stream), func(ev event) bool {
				got = append(got, ev.name+"|"+ev.id+"|"+string(ev.data))
				return true
			})
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, ";") != strings.Join(tt.want, ";") {
				t.Errorf("events = %q, want %q", got, tt.want)
			}
		})
	}
}
