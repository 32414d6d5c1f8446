package acp

//go:generate go run ../internal/acpgen/cmd/acpgen -schema schema/schema.json -meta schema/meta.json -out .
