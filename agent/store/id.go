package store

// CheckID reports ErrBadID for an id that cannot name a stored session:
// empty, longer than 128 bytes, starting with a dot, or holding characters
// other than ASCII letters, digits, '.', '_' and '-'.
func CheckID(id string) error { return checkID(id) }
