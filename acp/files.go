package acp

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"companion/rpc"
	"companion/tools"
)

// files reads through the editor when it offers fs/read_text_file, so the
// model sees unsaved buffers; otherwise, or when the editor cannot read a
// file that exists on disk, it reads the disk.
type files struct {
	client *Client
}

func newFiles(conn *rpc.Conn, id SessionID, caps ClientCapabilities) tools.Files {
	return &files{client: NewClient(conn, id, caps)}
}

// ReadTextFile implements tools.Files.
func (f *files) ReadTextFile(ctx context.Context, path string) (string, error) {
	if !f.client.CanReadFiles() {
		return readLocal(path)
	}
	text, err := f.client.ReadTextFile(ctx, path, 0, 0)
	if err == nil || ctx.Err() != nil {
		return text, err
	}
	var rerr *rpc.Error
	if errors.As(err, &rerr) && rerr.Code == rpc.CodeResourceNotFound {
		return "", fmt.Errorf("%s: %w", path, fs.ErrNotExist)
	}
	// The editor failed for another reason: the disk decides.
	return readLocal(path)
}

func readLocal(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	return string(data), nil
}
