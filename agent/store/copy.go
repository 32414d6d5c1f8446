package store

import "fmt"

// Copy stores recs (usually a prefix of another session's records, as
// Load returned them) as the new session meta.ID, then title when it is
// not empty: a fork. It is all or nothing: a failure removes the new log.
func (s *Store) Copy(meta Meta, recs []Record, title string) error {
	w, err := s.Create(meta)
	if err != nil {
		return err
	}
	if err = w.Append(recs...); err == nil && title != "" {
		err = w.SetTitle(title)
	}
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		if derr := s.Delete(meta.ID); derr != nil {
			s.log.Warn("session store: removing a failed copy", "session", meta.ID, "err", derr)
		}
		return fmt.Errorf("copy to session %s: %w", meta.ID, err)
	}
	return nil
}

// LastTitle is the title the last TypeTitle record of recs sets, "" when
// none does.
func LastTitle(recs []Record) string {
	title := ""
	for _, r := range recs {
		if r.Type == TypeTitle {
			if t, ok := titleOf(r.Data); ok {
				title = t
			}
		}
	}
	return title
}
