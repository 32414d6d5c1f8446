package oauth

// Registrations are the clients kept in the store (for the tests).
func (s *Store) Registrations() ([]Registration, error) {
	f, err := s.read()
	if err != nil {
		return nil, err
	}
	out := make([]Registration, 0, len(f.Clients))
	for _, r := range f.Clients {
		out = append(out, *r)
	}
	return out, nil
}
