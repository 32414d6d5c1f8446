package chat

import (
	"bufio"
	"io"
)

// maxLine bounds one typed (or pasted) line.
const maxLine = 1 << 20

// readLines reads r a line at a time onto the returned channel, closed at
// end of input (or a read error). The prompt and permission questions
// both take their answers from it. After done closes, lines already read
// are dropped; a read still blocked on the terminal ends with the process
// (or when r is closed).
func readLines(r io.Reader, done <-chan struct{}) <-chan string {
	ch := make(chan string)
	go func() {
		defer close(ch)
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 0, 4096), maxLine)
		for sc.Scan() {
			select {
			case ch <- sc.Text():
			case <-done:
				return
			}
		}
	}()
	return ch
}
