// Package credentials keeps the keys `companion login` stores, so a user
// who installed companion from an editor's registry can sign in without
// setting environment variables: in the operating system's keychain where
// one answers (the macOS Keychain, the Windows Credential Manager, a
// Secret Service on a desktop Linux session), else in a file only the user
// can read beside the user settings. Keys set in the environment or the
// settings file win over stored ones (the wiring reads these last).
//
// It imports nothing of companion's own.
package credentials
