package scripted

import (
	"strings"
	"testing"
)

// TestDemoScriptPointsAtTheRealModel: the demo's closing words tell a
// --demo user how to leave the demo (a key, then no --demo), and say
// nothing of --script, which they did not use.
func TestDemoScriptPointsAtTheRealModel(t *testing.T) {
	var text strings.Builder
	for _, turn := range DemoScript().Turns {
		for _, c := range turn.Chunks {
			text.WriteString(c.Text)
		}
	}
	s := text.String()
	for _, want := range []string{"GEMINI_API_KEY", "without --demo"} {
		if !strings.Contains(s, want) {
			t.Errorf("demo text lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "--script") {
		t.Errorf("demo text mentions --script:\n%s", s)
	}
}
