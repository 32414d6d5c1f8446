package acp

import "fmt"

// MaxWireDiff bounds the texts (old and new together, in bytes) an edit's
// diff carries to the editor. A bigger change is summarised in words: its
// texts would be copied into every message that shows the card, and no
// editor reviews hundreds of megabytes line by line.
const MaxWireDiff = 4 << 20

// EditContent is DiffContent for a change within MaxWireDiff, and text
// saying what changed in size otherwise.
func EditContent(path string, oldText *string, newText string) ToolCallContent {
	size := len(newText)
	if oldText != nil {
		size += len(*oldText)
	}
	if size <= MaxWireDiff {
		return DiffContent(path, oldText, newText)
	}
	what := fmt.Sprintf("New file `%s`: %s, too large to show as a diff.", path, byteSize(len(newText)))
	if oldText != nil {
		what = fmt.Sprintf("`%s` rewritten: %s, was %s; too large to show as a diff.", path, byteSize(len(newText)), byteSize(len(*oldText)))
	}
	return ToolContent(TextBlock(what))
}

// byteSize is n bytes in words: 1536 is "1.5 KiB".
func byteSize(n int) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d bytes", n)
	}
	f, i := float64(n)/unit, 0
	for ; f >= unit && i < 3; i++ {
		f /= unit
	}
	return fmt.Sprintf("%.1f %ciB", f, "KMGT"[i])
}
