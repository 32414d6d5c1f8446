package order

import (
	"strings"
	"testing"
)

func TestLoad(t *testing.T) {
	lines, err := Load(strings.NewReader("A-1 2 150\n\nB-2 1 99\n"))
	if err != nil || len(lines) != 2 || lines[0].Qty != 2 || lines[1].Price != 99 {
		t.Fatalf("Load = %+v, %v", lines, err)
	}
	if _, err := Load(strings.NewReader("A-1 two 150\n")); err == nil {
		t.Error("a bad quantity: no error")
	}
}
