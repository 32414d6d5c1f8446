package acp

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"companion/rpc"
	"companion/tools"
)

// files reads and writes through the editor when it offers
// fs/read_text_file and fs/write_text_file, so the model sees unsaved
// buffers and the editor tracks edits; the disk is used only when the
// capability was not advertised. The editor decides what it answered: an
// error from it fails the tool with that error and is never overridden by
// reading the disk. A "not found" from the editor (-32002, or a message
// saying so) means the file is new.
type files struct {
	client *Client
}

// ReadTextFile implements tools.Files.
func (f *files) ReadTextFile(ctx context.Context, path string) (string, error) {
	if !f.client.CanReadFiles() {
		return readLocal(ctx, path)
	}
	text, err := f.client.ReadTextFile(ctx, path, 0, 0)
	if err == nil || ctx.Err() != nil {
		return text, err
	}
	var rerr *rpc.Error
	if errors.As(err, &rerr) && (rerr.Code == rpc.CodeResourceNotFound || saysNotFound(rerr.Message)) {
		return "", fmt.Errorf("%s: %w", path, fs.ErrNotExist)
	}
	// Many clients answer a missing file with a generic error: a file the
	// disk does not have either is new. Otherwise the editor refused or
	// failed, and its answer stands (a client that denies reads must not be
	// overridden by the disk).
	if tools.MissingLocally(ctx, path) {
		return "", fmt.Errorf("%s: %w", path, fs.ErrNotExist)
	}
	return "", fmt.Errorf("the editor answered: %w", err)
}

// readLocal reads the disk, confined by the roots ctx carries.
func readLocal(ctx context.Context, path string) (string, error) {
	return tools.LocalFiles{}.ReadTextFile(ctx, path)
}

// WriteTextFile implements tools.Files: through the editor when it offers
// fs/write_text_file (it tracks the change and may review it), else an
// atomic local write.
func (f *files) WriteTextFile(ctx context.Context, path, content string) error {
	if !f.client.CanWriteFiles() {
		return tools.LocalFiles{}.WriteTextFile(ctx, path, content)
	}
	// Editors create a missing file but not always its folder; the editor
	// runs on this machine (it started us over stdio), so make it here.
	if err := tools.MakeParents(ctx, path); err != nil {
		return fmt.Errorf("create folder for %s: %w", path, err)
	}
	return f.client.WriteTextFile(ctx, path, content)
}

// saysNotFound recognises editors that answer a missing file with a generic
// error whose message says so.
func saysNotFound(msg string) bool {
	m := strings.ToLower(msg)
	return strings.Contains(m, "not found") || strings.Contains(m, "no such file") || strings.Contains(m, "does not exist")
}
