package builtin

import (
	"context"
	"fmt"
	"strings"

	"companion/tools"
)

// Limits on the lists in read_many_files' notes.
const (
	// manyListedSkips is how many skipped files the text lists by name.
	manyListedSkips = 50
	// manyRawNotRead is how many unread files the raw output names.
	manyRawNotRead = 100
	// manyMinSection is the least room worth starting another file in.
	manyMinSection = 256
)

// manyEnd closes the concatenated files, as in Gemini CLI.
const manyEnd = "--- End of content ---"

// manyOutput reads files one after another through read_file's code and
// concatenates them within the call's limits.
type manyOutput struct {
	env    *tools.Env
	opts   ExtraOptions
	b      strings.Builder
	images []tools.Image
	// media is the size of the images and PDFs attached so far.
	media int64
	// notRead are files left unread by the file count or size limits.
	notRead []string
	raw     ReadManyFilesRaw
}

// readAll reads files in order until a limit is reached.
func (o *manyOutput) readAll(ctx context.Context, files []string) error {
	for i, abs := range files {
		if i >= o.opts.MaxReadFiles || o.raw.Truncated {
			o.notRead = append(o.notRead, o.env.Roots.Display(abs))
			continue
		}
		if err := o.readOne(ctx, abs); err != nil {
			return err
		}
	}
	return nil
}

// readOne reads one file as read_file would and adds it to the output.
func (o *manyOutput) readOne(ctx context.Context, abs string) error {
	shown := o.env.Roots.Display(abs)
	rc := &readFileCall{env: o.env, opts: o.opts.Read, abs: abs, limit: o.opts.Read.MaxLines}
	res, err := rc.Execute(ctx, nil)
	if err != nil {
		return err
	}
	raw, _ := res.Raw.(ReadFileRaw)
	switch {
	case res.IsError:
		o.skip(shown, res.Text)
	case raw.Binary:
		o.skip(shown, "binary file")
	case len(res.Images) > 0:
		size := raw.Bytes
		if o.media+size > o.opts.Read.MaxMediaBytes {
			o.skip(shown, fmt.Sprintf("images and PDFs together would pass the %s limit; read it with read_file",
				tools.FormatSize(o.opts.Read.MaxMediaBytes)))
			return nil
		}
		if o.section(abs, shown, res.Text) {
			o.media += size
			o.images = append(o.images, res.Images...)
		}
	default:
		o.section(abs, shown, res.Text)
	}
	return nil
}

// section appends one file's text under a separator, cutting it when the
// output limit is reached. It reports whether the file was added.
func (o *manyOutput) section(abs, shown, text string) bool {
	sep := "--- " + shown + " ---\n"
	room := o.opts.MaxReadBytes - o.b.Len() - len(sep)
	if room < len(text)+2 {
		if room < manyMinSection && o.b.Len() > 0 {
			o.raw.Truncated = true
			o.notRead = append(o.notRead, shown)
			return false
		}
		cut, _ := cutText(text, max(room, manyMinSection))
		text = cut + fmt.Sprintf("\n[Cut here: the output limit of %s was reached; read the rest of %s with read_file.]",
			tools.FormatSize(int64(o.opts.MaxReadBytes)), shown)
		o.raw.Truncated = true
	}
	o.b.WriteString(sep)
	o.b.WriteString(text)
	o.b.WriteString("\n\n")
	o.raw.Files = append(o.raw.Files, abs)
	return true
}

func (o *manyOutput) skip(path, reason string) {
	o.raw.Skipped = append(o.raw.Skipped, SkippedFile{Path: path, Reason: reason})
}

// result renders the files read and notes on everything left out.
func (o *manyOutput) result() *tools.Result {
	var b strings.Builder
	if len(o.raw.Files) > 0 {
		b.WriteString(o.b.String())
		b.WriteString(manyEnd)
		b.WriteByte('\n')
	} else {
		b.WriteString("No files were read.\n")
	}
	o.writeNotes(&b)
	o.raw.Bytes = o.b.Len()
	o.raw.Files = append([]string{}, o.raw.Files...)
	raw := o.raw
	if len(o.notRead) > 0 {
		raw.NotRead = len(o.notRead)
		raw.NotReadFiles = o.notRead[:min(len(o.notRead), manyRawNotRead)]
	}
	return &tools.Result{
		Text:    strings.TrimSuffix(b.String(), "\n"),
		Images:  o.images,
		Display: fmt.Sprintf("Read %d %s (%s)", len(raw.Files), plural(len(raw.Files), "file", "files"), tools.FormatSize(int64(raw.Bytes))),
		IsError: len(o.raw.Files) == 0,
		Raw:     raw,
	}
}

// writeNotes lists what was skipped, left unread, ignored or excluded.
func (o *manyOutput) writeNotes(b *strings.Builder) {
	if n := len(o.raw.Skipped); n > 0 {
		fmt.Fprintf(b, "Skipped %d:\n", n)
		for _, s := range o.raw.Skipped[:min(n, manyListedSkips)] {
			fmt.Fprintf(b, "- %s: %s\n", s.Path, strings.TrimSuffix(s.Reason, "."))
		}
		if n > manyListedSkips {
			fmt.Fprintf(b, "- and %d more\n", n-manyListedSkips)
		}
	}
	if n := len(o.notRead); n > 0 {
		why := fmt.Sprintf("the limit of %d files per call", o.opts.MaxReadFiles)
		if o.raw.Truncated {
			why = fmt.Sprintf("the output limit of %s", tools.FormatSize(int64(o.opts.MaxReadBytes)))
		}
		fmt.Fprintf(b, "[%d more %s not read because of %s; read %s in another call: %s]\n",
			n, plural(n, "file was", "files were"), why, plural(n, "it", "them"),
			strings.Join(o.notRead[:min(n, manyListedSkips)], ", ")+more(n, manyListedSkips))
	}
	if n := o.raw.Ignored; n > 0 {
		fmt.Fprintf(b, "(.gitignore or .geminiignore rules left out %d %s; pass respect_git_ignore false to include them.)\n",
			n, plural(n, "entry", "entries"))
	}
	if n := o.raw.Excluded; n > 0 {
		fmt.Fprintf(b, "(%d %s matched an exclude pattern.)\n", n, plural(n, "file", "files"))
	}
}

// more is ", ..." when a list of n items was shown only up to shown.
func more(n, shown int) string {
	if n > shown {
		return ", ..."
	}
	return ""
}
