// Package skills finds Agent Skills (folders holding a SKILL.md with YAML
// front matter: name, description, optional allowed-tools, and resource
// files beside it) in the project's and the user's skill folders, checks
// them, and serves them to a session: the name and description of each for
// the system prompt, the activate_skill tool that loads one skill's
// instructions and lists its resources, and the lookups behind the
// /skill-name and /skills commands.
//
// Discovery is bounded (folders per location, SKILL.md size, resources per
// skill). A project skill wins over a user skill of the same name; the
// hidden one is recorded as shadowed. Project folders are only searched in
// a trusted workspace: the caller decides by passing no project locations.
package skills
