// Package docker holds the Binder and JupyterHub image (Dockerfile,
// entrypoint.sh) and the checks CI can make of it without a Docker engine:
// the Dockerfile is parsed with BuildKit's own parser and held to
// repo2docker's and JupyterHub's rules, and the entrypoint is run.
package docker

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/moby/buildkit/frontend/dockerfile/parser"
)

// An instruction of a Dockerfile: its keyword, lower case, and its
// arguments as the parser split them.
type instruction struct {
	keyword  string
	args     []string
	flags    []string
	original string
	line     int
}

// stage is one FROM and the instructions after it.
type stage struct {
	from         instruction
	instructions []instruction
}

// globalArgs returns the build arguments declared before the first FROM,
// which FROM may use, with their defaults ("" if none).
func globalArgs(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	result, err := parser.Parse(f)
	if err != nil {
		t.Fatalf("%s does not parse: %v", path, err)
	}
	args := map[string]string{}
	for _, n := range result.AST.Children {
		if strings.EqualFold(n.Value, "from") {
			break
		}
		if strings.EqualFold(n.Value, "arg") {
			for a := n.Next; a != nil; a = a.Next {
				name, value, _ := strings.Cut(a.Value, "=")
				args[name] = strings.Trim(value, `"`)
			}
		}
	}
	return args
}

// fromArg matches a FROM image that is one build argument: $NAME or ${NAME}.
var fromArg = regexp.MustCompile(`^\$(?:\{(\w+)\}|(\w+))$`)

func parseDockerfile(t *testing.T, path string) []stage {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	result, err := parser.Parse(f)
	if err != nil {
		t.Fatalf("%s does not parse: %v", path, err)
	}
	var stages []stage
	for _, n := range result.AST.Children {
		in := instruction{keyword: strings.ToLower(n.Value), flags: n.Flags, original: n.Original, line: n.StartLine}
		for a := n.Next; a != nil; a = a.Next {
			in.args = append(in.args, a.Value)
		}
		if in.keyword == "from" {
			stages = append(stages, stage{from: in})
			continue
		}
		if len(stages) == 0 {
			continue // ARGs before the first FROM
		}
		stages[len(stages)-1].instructions = append(stages[len(stages)-1].instructions, in)
	}
	if len(stages) == 0 {
		t.Fatalf("%s has no FROM", path)
	}
	return stages
}

// goVersion is the go line of go.mod.
func goVersion(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^go (\S+)$`).FindSubmatch(data)
	if m == nil {
		t.Fatal("go.mod has no go line")
	}
	return string(m[1])
}

// toolchainFits reports whether the golang image tag (1.26.8-trixie) is
// a toolchain of the Go that go.mod's go line (1.26 or 1.26.0) names: the
// same release, 1.26, at its patch or later.
func toolchainFits(tag, goLine string) bool {
	tag, _, _ = strings.Cut(tag, "-")
	parse := func(v string) (release string, patch int, ok bool) {
		parts := strings.Split(v, ".")
		if len(parts) < 2 || len(parts) > 3 {
			return "", 0, false
		}
		if len(parts) == 3 {
			p, err := strconv.Atoi(parts[2])
			if err != nil {
				return "", 0, false
			}
			patch = p
		}
		return parts[0] + "." + parts[1], patch, true
	}
	have, havePatch, ok1 := parse(tag)
	want, wantPatch, ok2 := parse(goLine)
	return ok1 && ok2 && have == want && havePatch >= wantPatch
}

// TestDockerfileRules holds docker/Dockerfile to the rules of the images
// Binder and JupyterHub run: bases that are build arguments (GO_IMAGE,
// BASE_IMAGE: scripts/image passes stand-ins) with pinned defaults, the
// Go that go.mod names, the NB_USER/NB_UID build arguments, a non-root
// user at the end, port 8888, no downloads by ADD, libzmq's packages
// before the shared install script, and our entrypoint.
func TestDockerfileRules(t *testing.T) {
	stages := parseDockerfile(t, "Dockerfile")
	global := globalArgs(t, "Dockerfile")
	names := map[string]bool{}
	var bases []string
	for _, s := range stages {
		args := s.from.args
		if len(args) == 0 {
			t.Fatalf("line %d: FROM without an image", s.from.line)
		}
		image := args[0]
		if !names[image] {
			m := fromArg.FindStringSubmatch(image)
			if m == nil {
				t.Errorf("line %d: FROM %s: name the base image by a build argument declared before the first FROM (ARG NAME=image:tag), so that scripts/image can pass a stand-in", s.from.line, image)
			} else {
				arg := m[1] + m[2]
				bases = append(bases, arg)
				image = global[arg]
				if image == "" {
					t.Errorf("line %d: FROM %s: the build argument %s has no default before the first FROM; give it the pinned image", s.from.line, args[0], arg)
				}
			}
			checkPinned(t, s.from.line, image)
		}
		if len(args) == 3 && strings.EqualFold(args[1], "as") {
			names[args[2]] = true
		}
		if strings.HasPrefix(image, "golang:") {
			if v := goVersion(t); !toolchainFits(strings.TrimPrefix(image, "golang:"), v) {
				t.Errorf("line %d: the Go toolchain %s is not of the Go that go.mod names (%s), or older", s.from.line, image, v)
			}
		}
	}
	if got := strings.Join(bases, " "); got != "GO_IMAGE BASE_IMAGE" {
		t.Errorf("the bases are the build arguments %q; scripts/image (image_test.go) passes GO_IMAGE for the Go stage and BASE_IMAGE for the final one", got)
	}
	final := stages[len(stages)-1]
	if names[final.from.args[0]] {
		t.Errorf("the final stage starts from the build stage %s; it must start from the Jupyter base image", final.from.args[0])
	}

	var nbUser, nbUID, expose, install, libzmq, copiesEntrypoint bool
	user, entrypoint := "", []string(nil)
	for _, in := range final.instructions {
		switch in.keyword {
		case "arg":
			for _, a := range in.args {
				name, value, _ := strings.Cut(a, "=")
				nbUser = nbUser || name == "NB_USER"
				if name == "NB_UID" {
					nbUID = value == "1000"
				}
			}
		case "user":
			user = strings.Join(in.args, " ")
		case "expose":
			for _, p := range in.args {
				expose = expose || strings.TrimSuffix(p, "/tcp") == "8888"
			}
		case "add":
			for _, src := range in.args[:max(len(in.args)-1, 0)] {
				if regexp.MustCompile(`^(https?|git)://|^git@`).MatchString(src) {
					t.Errorf("line %d: ADD downloads %s; fetch with a checked step instead", in.line, src)
				}
			}
		case "run":
			run := strings.Join(in.args, " ")
			libzmq = libzmq || !install && strings.Contains(run, "apt-get install") && strings.Contains(run, "libzmq3-dev")
			install = install || strings.Contains(run, "scripts/install")
		case "copy":
			copiesEntrypoint = copiesEntrypoint || strings.Contains(in.original, "docker/entrypoint.sh")
		case "entrypoint":
			entrypoint = in.args
		}
	}
	if !nbUser || !nbUID {
		t.Errorf("the final stage must declare ARG NB_USER and ARG NB_UID=1000 (repo2docker passes them); NB_USER %v, NB_UID=1000 %v", nbUser, nbUID)
	}
	if user == "" || user == "root" || user == "0" || strings.HasPrefix(user, "root:") || strings.HasPrefix(user, "0:") {
		t.Errorf("the image must end as a non-root user, not %q", user)
	}
	if !expose {
		t.Error("the image must EXPOSE 8888")
	}
	if !install {
		t.Error("the image must install the kernel with scripts/install, the script the README's set-up runs")
	}
	if !libzmq {
		t.Error("the image must apt-get install libzmq3-dev before scripts/install: the kernel is built with cgo against libzmq")
	}
	if !copiesEntrypoint || !strings.Contains(strings.Join(entrypoint, " "), "tensornb-entrypoint") {
		t.Errorf("the image must copy docker/entrypoint.sh and use it in ENTRYPOINT; ENTRYPOINT is %q", entrypoint)
	}
}

// checkPinned fails unless image names a tag other than latest, or a
// digest.
func checkPinned(t *testing.T, line int, image string) {
	t.Helper()
	if strings.Contains(image, "@sha256:") {
		return
	}
	name := image[strings.LastIndex(image, "/")+1:]
	_, tag, ok := strings.Cut(name, ":")
	switch {
	case strings.Contains(image, "$"):
		t.Errorf("line %d: FROM %s: the default base image must be written out, not built from variables", line, image)
	case !ok || tag == "":
		t.Errorf("line %d: FROM %s has no tag: pin one", line, image)
	case tag == "latest":
		t.Errorf("line %d: FROM %s: pin a version, never latest", line, image)
	}
}

// TestBinderUsesTheSameBuild checks that binder/Dockerfile, which Binder
// reads, is docker/Dockerfile.
func TestBinderUsesTheSameBuild(t *testing.T) {
	ours, err := os.ReadFile("Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	binder, err := os.ReadFile(filepath.Join("..", "binder", "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(ours, binder) {
		t.Fatal("binder/Dockerfile differs from docker/Dockerfile: copy it (cp docker/Dockerfile binder/Dockerfile)")
	}
}

// TestEntrypointExecsTheCommand runs the entrypoint as the image would,
// with a command that prints its own process id: the entrypoint must
// replace itself with the command (same process), and give a home without
// notebooks a copy of them, but leave an existing copy alone.
func TestEntrypointExecsTheCommand(t *testing.T) {
	lines, err := os.ReadFile("entrypoint.sh")
	if err != nil {
		t.Fatal(err)
	}
	var last string
	for _, l := range strings.Split(string(lines), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			last = l
		}
	}
	if last != `exec "$@"` {
		t.Errorf(`the entrypoint's last command is %q; it must be exec "$@"`, last)
	}

	home, shipped := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(shipped, "00-tour.ipynb"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func() string {
		t.Helper()
		var out bytes.Buffer
		cmd := exec.Command("./entrypoint.sh", "sh", "-c", `echo $$; cat "$HOME/notebooks/00-tour.ipynb"`)
		cmd.Env = append(os.Environ(), "HOME="+home, "TENSORNB_NOTEBOOKS="+shipped)
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			t.Fatalf("the entrypoint failed: %v\n%s", err, out.String())
		}
		pid, rest, _ := strings.Cut(out.String(), "\n")
		if n, err := strconv.Atoi(pid); err != nil || n != cmd.Process.Pid {
			t.Errorf("the command ran as process %s, the entrypoint as %d: the entrypoint must exec it", pid, cmd.Process.Pid)
		}
		return rest
	}
	if got := run(); got != "{}" {
		t.Errorf("the notebooks were not copied into the empty home: %q", got)
	}
	if err := os.WriteFile(filepath.Join(home, "notebooks", "00-tour.ipynb"), []byte("edited"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := run(); got != "edited" {
		t.Errorf("the entrypoint overwrote the user's notebooks: %q", got)
	}
}

func TestToolchainFits(t *testing.T) {
	for _, c := range []struct {
		tag, goLine string
		want        bool
	}{
		{"1.26.8-trixie", "1.26", true},
		{"1.26.8-trixie", "1.26.0", true},
		{"1.26.8", "1.26.8", true},
		{"1.26.7-trixie", "1.26.8", false},
		{"1.25.9-trixie", "1.26.0", false},
		{"1.27.0", "1.26.0", false},
		{"latest", "1.26", false},
	} {
		if got := toolchainFits(c.tag, c.goLine); got != c.want {
			t.Errorf("toolchainFits(%q, %q) = %t, want %t", c.tag, c.goLine, got, c.want)
		}
	}
}
