package registry

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// schemaURL is the schema's $id; the copy in testdata stands for it.
const schemaURL = "https://cdn.agentclientprotocol.com/registry/v1/latest/agent.schema.json"

// entryDir is the entry's folder, which the registry wants named by its id.
const entryDir = "companion"

// entry is what the tests read of agent.json.
type entry struct {
	ID           string `json:"id"`
	Version      string `json:"version"`
	Repository   string `json:"repository"`
	License      string `json:"license"`
	Distribution struct {
		Binary map[string]target `json:"binary"`
	} `json:"distribution"`
}

// target is one platform's archive, in the registry's and Zed's shape.
type target struct {
	Archive string   `json:"archive" toml:"archive"`
	Cmd     string   `json:"cmd" toml:"cmd"`
	Args    []string `json:"args" toml:"args"`
}

// compileSchema compiles the vendored registry schema, asserting formats
// (uri) as the registry's validator does.
func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "agent.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(schemaURL, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(schemaURL)
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

// validate reports whether data is a valid entry by the schema.
func validate(sch *jsonschema.Schema, data []byte) error {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return err
	}
	return sch.Validate(inst)
}

// readEntry reads companion/agent.json, raw and decoded.
func readEntry(t *testing.T) ([]byte, entry) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(entryDir, "agent.json"))
	if err != nil {
		t.Fatal(err)
	}
	var e entry
	if err := json.Unmarshal(data, &e); err != nil {
		t.Fatal(err)
	}
	return data, e
}

// TestEntryMatchesSchema: agent.json is valid by the registry's schema,
// and the schema as compiled here does reject broken entries.
func TestEntryMatchesSchema(t *testing.T) {
	sch := compileSchema(t)
	data, _ := readEntry(t)
	if err := validate(sch, data); err != nil {
		t.Fatalf("agent.json does not match the registry schema: %v", err)
	}
	broken := map[string]func(map[string]any){
		"no version":      func(m map[string]any) { delete(m, "version") },
		"uppercase id":    func(m map[string]any) { m["id"] = "Companion" },
		"unknown target":  func(m map[string]any) { binary(m)["freebsd-x86_64"] = binary(m)["linux-x86_64"] },
		"no cmd":          func(m map[string]any) { delete(binary(m)["linux-x86_64"].(map[string]any), "cmd") },
		"unknown dist":    func(m map[string]any) { m["distribution"].(map[string]any)["docker"] = map[string]any{} },
		"archive not uri": func(m map[string]any) { binary(m)["linux-x86_64"].(map[string]any)["archive"] = "not a url" },
	}
	for name, edit := range broken {
		var m map[string]any
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		edit(m)
		b, _ := json.Marshal(m)
		if validate(sch, b) == nil {
			t.Errorf("%s: the schema accepted a broken entry", name)
		}
	}
}

// binary is an entry's distribution.binary as a map.
func binary(m map[string]any) map[string]any {
	return m["distribution"].(map[string]any)["binary"].(map[string]any)
}

// TestEntryRegistryChecks: the checks the registry's CI makes beyond the
// schema that need no network: the id names the folder, every operating
// system has a build, archive URLs carry the entry's version and never
// /latest/.
func TestEntryRegistryChecks(t *testing.T) {
	_, e := readEntry(t)
	if e.ID != entryDir {
		t.Errorf("id %q does not name the entry's folder", e.ID)
	}
	if !regexp.MustCompile(`^\d+\.\d+\.\d+$`).MatchString(e.Version) {
		t.Errorf("version %q is not x.y.z", e.Version)
	}
	families := map[string]bool{}
	version := regexp.MustCompile(`/(?:download|releases)/v?([\d.]+)/`)
	for name, tg := range e.Distribution.Binary {
		families[strings.SplitN(name, "-", 2)[0]] = true
		if strings.Contains(tg.Archive, "/latest/") {
			t.Errorf("%s: archive %s uses /latest/", name, tg.Archive)
		}
		if m := version.FindStringSubmatch(tg.Archive); m == nil || m[1] != e.Version {
			t.Errorf("%s: archive %s does not carry version %s", name, tg.Archive, e.Version)
		}
	}
	for _, os := range []string{"darwin", "linux", "windows"} {
		if !families[os] {
			t.Errorf("no %s build: the registry wants every operating system", os)
		}
	}
}

// TestIcon: icon.svg is the 16×16 monochrome (currentColor) icon the
// registry's CI accepts.
func TestIcon(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(entryDir, "icon.svg"))
	if err != nil {
		t.Fatal(err)
	}
	svg := string(data)
	if !regexp.MustCompile(`<svg[^>]*\swidth="16"`).MatchString(svg) || !regexp.MustCompile(`<svg[^>]*\sheight="16"`).MatchString(svg) {
		t.Error("icon is not 16x16")
	}
	for _, m := range regexp.MustCompile(`(?i)\b(?:fill|stroke)\s*=\s*["']([^"']+)["']`).FindAllStringSubmatch(svg, -1) {
		if v := strings.ToLower(strings.TrimSpace(m[1])); !slices.Contains([]string{"currentcolor", "none", "inherit"}, v) {
			t.Errorf("icon has a hard-coded colour %q", m[1])
		}
	}
	if !strings.Contains(strings.ToLower(svg), "currentcolor") {
		t.Error("icon does not use currentColor")
	}
}

// TestSameArchivesAsZed: the registry entry lists the archives the Zed
// extension does (editors/zed/extension.toml, whose version placeholder is
// 0.0.0), which editors/zed/release.sh builds.
func TestSameArchivesAsZed(t *testing.T) {
	_, e := readEntry(t)
	var zed struct {
		Repository   string `toml:"repository"`
		AgentServers map[string]struct {
			Targets map[string]target `toml:"targets"`
		} `toml:"agent_servers"`
	}
	if _, err := toml.DecodeFile(filepath.Join("..", "zed", "extension.toml"), &zed); err != nil {
		t.Fatal(err)
	}
	if zed.Repository != e.Repository {
		t.Errorf("repository %q, Zed's %q", e.Repository, zed.Repository)
	}
	targets := zed.AgentServers["companion"].Targets
	if len(targets) != len(e.Distribution.Binary) {
		t.Errorf("%d targets, Zed has %d", len(e.Distribution.Binary), len(targets))
	}
	for name, z := range targets {
		got, ok := e.Distribution.Binary[name]
		z.Archive = strings.ReplaceAll(z.Archive, "0.0.0", e.Version)
		if !ok || got.Archive != z.Archive || got.Cmd != z.Cmd || !slices.Equal(got.Args, z.Args) {
			t.Errorf("%s: %+v, Zed's %+v", name, got, z)
		}
	}
}

// TestEntryLicense: the entry names a license, and the one the repository
// grants: "proprietary" while the repository has no LICENSE file, an SPDX
// identifier once it has one.
func TestEntryLicense(t *testing.T) {
	_, e := readEntry(t)
	_, err := os.Stat(filepath.Join("..", "..", "LICENSE"))
	switch {
	case e.License == "":
		t.Fatal("agent.json names no license")
	case os.IsNotExist(err) && e.License != "proprietary":
		t.Errorf("license %q, but the repository has no LICENSE file", e.License)
	case err == nil && e.License == "proprietary":
		t.Error(`the repository has a LICENSE file; name its SPDX identifier instead of "proprietary"`)
	}
}

// TestReleaseScriptBuildsLikeMakeRelease: the Zed archives are built by
// `make release`, so they carry the same tags, flags and version stamp as
// every other shipped binary, and make release stamps the version it is given.
func TestReleaseScriptBuildsLikeMakeRelease(t *testing.T) {
	script, err := os.ReadFile(filepath.Join("..", "zed", "release.sh"))
	if err != nil {
		t.Fatal(err)
	}
	if regexp.MustCompile(`(?m)^[^#]*\bgo build\b`).Match(script) {
		t.Error("release.sh runs go build itself; it must build through make release")
	}
	if !regexp.MustCompile(`(?m)^[^#]*make .*\brelease\b.*\\\n.*VERSION=`).Match(script) {
		t.Error("release.sh does not build through make release with VERSION")
	}
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed")
	}
	out, err := exec.Command("make", "-s", "-n", "-C", filepath.Join("..", ".."), "release", "VERSION=9.8.7").CombinedOutput()
	if err != nil {
		t.Fatalf("make -n release: %v\n%s", err, out)
	}
	for _, want := range []string{"-tags=grpcnotrace", "-X main.version=9.8.7", "-trimpath", "CGO_ENABLED=0"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("make release does not build with %s:\n%s", want, out)
		}
	}
}
