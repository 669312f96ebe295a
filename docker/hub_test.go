package docker

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// hub is Debian's JupyterHub, run by the test with hub/jupyterhub_config.py.
type hub struct {
	it       *imageTest
	cmd      *exec.Cmd
	log      *os.File
	public   string // http://127.0.0.1:PORT
	password string
	homes    string
	exited   chan struct{}
}

// freePort is a port of the loopback that nothing listens on now.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func (h *hub) logs() string {
	data, _ := os.ReadFile(h.log.Name())
	return string(data)
}

// startHub starts the hub on loopback ports of its own and waits until it
// answers.
func (it *imageTest) startHub(image string) (*hub, error) {
	dir := filepath.Join(it.dir, "hub")
	h := &hub{it: it, password: randomToken(), homes: filepath.Join(dir, "homes"), exited: make(chan struct{})}
	if err := os.MkdirAll(h.homes, 0o755); err != nil {
		return nil, err
	}
	var ports [3]int
	for i := range ports {
		p, err := freePort()
		if err != nil {
			return nil, err
		}
		ports[i] = p
	}
	h.public = fmt.Sprintf("http://127.0.0.1:%d", ports[0])
	config, err := filepath.Abs(filepath.Join("hub", "jupyterhub_config.py"))
	if err != nil {
		return nil, err
	}
	args := []string{"-f", config, "--port", strconv.Itoa(ports[0]),
		"--JupyterHub.hub_port=" + strconv.Itoa(ports[1]),
		fmt.Sprintf("--ConfigurableHTTPProxy.api_url=http://127.0.0.1:%d", ports[2]),
		"--JupyterHub.db_url=sqlite:///" + filepath.Join(dir, "jupyterhub.sqlite"),
		"--JupyterHub.cookie_secret_file=" + filepath.Join(dir, "cookie_secret"),
		"--PodmanSpawner.image=" + image, "--PodmanSpawner.homes=" + h.homes,
		"--DummyAuthenticator.password=" + h.password,
		"--Authenticator.allowed_users=alice", "--Authenticator.allowed_users=bob"}
	h.log, err = os.Create(filepath.Join(dir, "jupyterhub.log"))
	if err != nil {
		return nil, err
	}
	h.cmd = exec.Command("jupyterhub", args...)
	h.cmd.Dir = dir
	h.cmd.Env = it.pm.env()
	h.cmd.Stdout, h.cmd.Stderr = h.log, h.log
	h.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // the proxy too, at the end
	command := quote("jupyterhub", args...)
	command = strings.ReplaceAll(command, h.password, "…")
	it.prog.say("hub: %s", command)
	if err := h.cmd.Start(); err != nil {
		return nil, &failure{step: "hub: start", command: command, problem: err.Error(), todo: "apt-get install jupyterhub (scripts/image does)"}
	}
	go func() { h.cmd.Wait(); close(h.exited) }()
	deadline := time.Now().Add(5 * time.Minute) // a hang, not a speed check
	for {
		resp, err := http.Get(h.public + "/hub/health")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return h, nil
			}
		}
		select {
		case <-h.exited:
			return h, &failure{step: "hub: start", command: command, problem: "the hub exited before it answered", log: h.logs(), todo: "the log shows why"}
		case <-time.After(300 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return h, &failure{step: "hub: start", command: command, problem: "the hub did not answer /hub/health within 90 s", log: h.logs()}
		}
	}
}

// stop stops the hub and the proxy it started.
func (h *hub) stop() {
	if h.cmd.Process == nil {
		return
	}
	syscall.Kill(-h.cmd.Process.Pid, syscall.SIGTERM)
	select {
	case <-h.exited:
	case <-time.After(20 * time.Second):
		syscall.Kill(-h.cmd.Process.Pid, syscall.SIGKILL)
		<-h.exited
	}
	h.log.Close()
}

// A user of the hub: logged in with the hub's login form, with a token
// for the API made from that login.
type hubUser struct {
	h      *hub
	name   string
	client *http.Client // with the login's cookies
	token  string
	c      *container
}

// login logs in with the hub's form, as a person does, and asks the hub
// for an API token with the login's cookie.
func (h *hub) login(name string) (*hubUser, error) {
	step := "hub: " + name + " logs in"
	jar, _ := cookiejar.New(nil)
	// The client follows the hub's own redirects (login, spawn, spawn
	// pending) but not the last one, into the user's server: whether that
	// server is ready is waitReady's question, and a server that the hub
	// has just routed may answer its first request before JupyterLab's
	// pages are there (CI once saw a 404 there).
	stayInHub := func(req *http.Request, _ []*http.Request) error {
		if !strings.HasPrefix(req.URL.Path, "/hub/") {
			return http.ErrUseLastResponse
		}
		return nil
	}
	u := &hubUser{h: h, name: name, client: &http.Client{Jar: jar, Timeout: 60 * time.Second, CheckRedirect: stayInHub}}
	resp, err := u.client.Get(h.public + "/hub/login")
	if err != nil {
		return nil, &failure{step: step, command: "GET " + h.public + "/hub/login", problem: err.Error(), log: h.logs()}
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	form := url.Values{"username": {name}, "password": {h.password}}
	if m := regexp.MustCompile(`name="_xsrf"\s+value="([^"]*)"`).FindSubmatch(page); m != nil {
		form.Set("_xsrf", string(m[1]))
	}
	// The hub answers the form with a redirect to the spawn page, which
	// starts the user's server.
	resp, err = u.client.PostForm(h.public+"/hub/login", form)
	if err != nil {
		return nil, &failure{step: step, command: "POST " + h.public + "/hub/login", problem: err.Error(), log: h.logs()}
	}
	page, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode >= 400 || strings.Contains(string(page), "Invalid username or password") {
		return nil, &failure{step: step, command: "POST " + h.public + "/hub/login", problem: fmt.Sprintf("the login failed: HTTP %d at %s", resp.StatusCode, resp.Request.URL), log: h.logs()}
	}
	req, _ := http.NewRequest("POST", h.public+"/hub/api/users/"+name+"/tokens", strings.NewReader(`{"note": "the image test"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Referer", h.public+"/hub/token")
	resp, err = u.client.Do(req)
	if err != nil {
		return nil, &failure{step: step, command: "POST /hub/api/users/" + name + "/tokens", problem: err.Error(), log: h.logs()}
	}
	var token struct {
		Token string `json:"token"`
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err := json.Unmarshal(body, &token); err != nil || token.Token == "" {
		return nil, &failure{step: step, command: "POST /hub/api/users/" + name + "/tokens", problem: fmt.Sprintf("no token: HTTP %d %.300s", resp.StatusCode, body), log: h.logs()}
	}
	u.token = token.Token
	u.c = &container{it: h.it, name: "tensornb-hub-" + name, step: "hub: " + name}
	return u, nil
}

// api calls the hub's REST API with the user's token.
func (u *hubUser) api(method, path string, v any) (int, []byte, error) {
	return server{base: u.h.public + "/hub/api", token: u.token}.do(u.h.it.ctx, method, path, nil, v)
}

// singleuser is the user's server, through the hub's proxy.
func (u *hubUser) singleuser() server {
	return server{base: u.h.public + "/user/" + u.name + "/", token: u.token}
}

// logs is the hub's log and the user's container's.
func (u *hubUser) logs() string {
	return "--- the hub's log:\n" + lastLines(u.h.logs(), 15) + "\n--- the container's log:\n" + lastLines(u.c.logs(), 15)
}

// waitReady starts the user's server if it is not running and waits until
// the hub says it is ready; a spawn that fails ends the wait at once.
func (u *hubUser) waitReady() error {
	step := "hub: " + u.name + "'s server"
	code, body, err := u.api("POST", "/users/"+u.name+"/server", nil)
	if err != nil || (code != 201 && code != 202 && code != 400) { // 400: already running or pending
		return &failure{step: step, command: "POST /hub/api/users/" + u.name + "/server", problem: fmt.Sprintf("HTTP %d %v: %.300s", code, err, body), log: u.logs()}
	}
	deadline := time.Now().Add(3 * time.Minute)
	for {
		var model struct {
			Servers map[string]struct {
				Ready   bool    `json:"ready"`
				Pending *string `json:"pending"`
			} `json:"servers"`
		}
		code, body, err := u.api("GET", "/users/"+u.name, &model)
		if err != nil || code != 200 {
			return &failure{step: step, command: "GET /hub/api/users/" + u.name, problem: fmt.Sprintf("HTTP %d %v: %.300s", code, err, body), log: u.logs()}
		}
		srv, ok := model.Servers[""]
		if ok && srv.Ready {
			return nil
		}
		if !ok {
			return &failure{step: step, command: "GET /hub/api/users/" + u.name, problem: "the hub has no server for the user any more: the spawn failed", log: u.logs(),
				todo: "the hub's log says why PodmanSpawner could not start the container, or the container's why the server stopped"}
		}
		if time.Now().After(deadline) {
			return &failure{step: step, problem: "the server was not ready within 3 minutes", log: u.logs()}
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// stopServer stops the user's server through the hub and waits until it
// is gone.
func (u *hubUser) stopServer() error {
	step := "hub: " + u.name + "'s server stops"
	code, body, err := u.api("DELETE", "/users/"+u.name+"/server", nil)
	if err != nil || (code != 202 && code != 204) {
		return &failure{step: step, command: "DELETE /hub/api/users/" + u.name + "/server", problem: fmt.Sprintf("HTTP %d %v: %.300s", code, err, body), log: u.logs()}
	}
	for range 120 {
		var model struct {
			Servers map[string]any `json:"servers"`
		}
		if _, _, err := u.api("GET", "/users/"+u.name, &model); err == nil && len(model.Servers) == 0 {
			return nil
		}
		time.Sleep(500 * time.Millisecond)
	}
	return &failure{step: step, problem: "the server did not stop within a minute", log: u.logs()}
}

// testHub serves a class from Debian's JupyterHub: alice and bob log in,
// each gets a container of the image with an empty home of their own (as
// KubeSpawner gives one), the notebooks appear in it, alice runs every
// notebook and bob the tour, at the same time; neither can reach the
// other's files or server; and alice's change to a notebook survives a
// restart of her server.
func (it *imageTest) testHub(t *testing.T, image string) {
	h, err := it.startHub(image)
	if h != nil {
		defer func() {
			for _, name := range []string{"alice", "bob"} {
				it.pm.run(context.Background(), "rm", "--force", "--time", "2", "tensornb-hub-"+name)
			}
			h.stop()
		}()
	}
	if err != nil {
		it.fail(t, err)
	}
	users := map[string]*hubUser{}
	for _, name := range []string{"alice", "bob"} {
		u, err := h.login(name)
		if err != nil {
			it.fail(t, err)
		}
		users[name] = u
	}
	for _, u := range users {
		if err := u.waitReady(); err != nil {
			it.fail(t, err)
		}
		it.prog.say("hub: %s logged in; their server runs in the container %s", u.name, u.c.name)
	}
	alice, bob := users["alice"], users["bob"]

	// Each container: the image, uid 1000 and gid 100, the single-user
	// command, and one mount, its user's own home over /home/jovyan.
	for _, u := range users {
		out, err := it.pm.run(it.ctx, "inspect", "--format", "{{.Config.User}}|{{json .Config.Cmd}}|{{range .Mounts}}{{.Source}}:{{.Destination}} {{end}}", u.c.name)
		if err != nil {
			it.fail(t, &failure{step: "hub: " + u.name + "'s container", problem: err.Error(), log: u.logs()})
		}
		want := fmt.Sprintf(`1000:100|["jupyterhub-singleuser"]|%s:/home/jovyan`, filepath.Join(h.homes, u.name))
		if out != want {
			it.fail(t, &failure{step: "hub: " + u.name + "'s container", command: "podman inspect " + u.c.name, problem: fmt.Sprintf("user|command|mounts are %q, want %q", out, want),
				todo: "see PodmanSpawner.start in docker/hub/podmanspawner.py"})
		}
		if err := it.checkNotebooks("hub: "+u.name, u.singleuser(), u.logs); err != nil {
			it.fail(t, err)
		}
		// The hub opens /lab/tree/notebooks/00-tour.ipynb (Spawner.default_url).
		if version, err := it.labVersion(u.singleuser()); err != nil || !atLeast(version, 4, 1) {
			it.fail(t, &failure{step: "hub: " + u.name + "'s JupyterLab", command: "GET " + u.singleuser().base + "lab", problem: fmt.Sprintf("the single-user server's JupyterLab is %q (%v), not 4.1 or later", version, err), log: u.logs(),
				todo: "jupyterhub-singleuser must serve JupyterLab at /lab: on the stand-in, through the jupyterlab_server extension docker/standin enables"})
		}
	}
	it.prog.say("hub: the notebooks appeared in both empty homes; both servers serve JupyterLab at /lab")

	// alice runs every notebook, bob the tour, at once.
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, run := range []struct {
		u     *hubUser
		paths []string
	}{{alice, it.notebookPaths()}, {bob, []string{filepath.Join(it.root, "notebooks", "00-tour.ipynb")}}} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			stop := run.u.c.watch()
			defer stop()
			_, errs[i] = it.runNotebooks("hub: "+run.u.name, run.u.singleuser(), "", run.paths, run.u.logs)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			it.fail(t, err)
		}
	}
	for _, u := range users {
		if err := u.c.checkNotRoot(); err != nil {
			it.fail(t, err)
		}
		it.prog.say("hub: %s's container: peak memory %d MiB; the kinds of process seen, none as root:\n    %s", u.name, u.c.peak>>20, strings.Join(slices.Sorted(mapKeys(u.c.processes)), "\n    "))
	}

	// Neither sees the other's files: bob writes one; alice's home does not
	// have it, and the hub refuses alice's token at bob's server.
	secret := "bob-private.txt"
	code, body, err := bob.singleuser().do(it.ctx, "PUT", "/api/contents/"+secret, map[string]string{"type": "file", "format": "text", "content": "bob's"}, nil)
	if err != nil || code/100 != 2 {
		it.fail(t, &failure{step: "hub: bob writes a file", command: "PUT /user/bob/api/contents/" + secret, problem: fmt.Sprintf("HTTP %d %v: %.300s", code, err, body), log: bob.logs()})
	}
	var listing struct {
		Content []struct {
			Name string `json:"name"`
		} `json:"content"`
	}
	if code, body, err := alice.singleuser().get(it.ctx, "/api/contents/", &listing); err != nil || code != 200 {
		it.fail(t, &failure{step: "hub: alice lists her home", problem: fmt.Sprintf("HTTP %d %v: %.300s", code, err, body), log: alice.logs()})
	}
	for _, f := range listing.Content {
		if f.Name == secret {
			it.fail(t, &failure{step: "hub: isolation", problem: "bob's file is in alice's home", todo: "each user's container must mount only that user's home (PodmanSpawner.home)"})
		}
	}
	aliceAtBob := server{base: h.public + "/user/bob/", token: alice.token}
	if code, body, err := aliceAtBob.get(it.ctx, "/api/contents/"+secret, nil); err != nil || code == 200 {
		it.fail(t, &failure{step: "hub: isolation", command: "GET /user/bob/api/contents/" + secret + " with alice's token", problem: fmt.Sprintf("HTTP %d %v: %.300s", code, err, body),
			todo: "the hub must refuse a user's token at another user's server"})
	} else {
		it.prog.say("hub: bob's file is not in alice's home, and bob's server refuses alice's token (HTTP %d)", code)
	}

	// alice changes the tour; her server restarts; the change stays.
	tour := "/api/contents/notebooks/00-tour.ipynb"
	var model struct {
		Content map[string]any `json:"content"`
	}
	if code, body, err := alice.singleuser().get(it.ctx, tour, &model); err != nil || code != 200 {
		it.fail(t, &failure{step: "hub: alice opens the tour", problem: fmt.Sprintf("HTTP %d %v: %.300s", code, err, body), log: alice.logs()})
	}
	mark := "alice was here " + randomToken()[:6]
	cells, _ := model.Content["cells"].([]any)
	model.Content["cells"] = append(cells, map[string]any{"cell_type": "markdown", "metadata": map[string]any{}, "source": mark})
	if code, body, err := alice.singleuser().do(it.ctx, "PUT", tour, map[string]any{"type": "notebook", "content": model.Content}, nil); err != nil || code/100 != 2 {
		it.fail(t, &failure{step: "hub: alice saves the tour", problem: fmt.Sprintf("HTTP %d %v: %.300s", code, err, body), log: alice.logs()})
	}
	if err := alice.stopServer(); err != nil {
		it.fail(t, err)
	}
	if err := alice.waitReady(); err != nil {
		it.fail(t, err)
	}
	code, body, err = alice.singleuser().get(it.ctx, tour+"?type=file&format=text&content=1", nil)
	if err != nil || code != 200 || !strings.Contains(string(body), mark) {
		it.fail(t, &failure{step: "hub: alice's change survives a restart", command: "GET /user/alice" + tour, problem: fmt.Sprintf("HTTP %d %v; her change is gone", code, err), log: alice.logs(),
			todo: "docker/entrypoint.sh must not copy the notebooks over a home that has them"})
	}
	it.prog.say("hub: alice's change to the tour is still there after her server restarted")
	it.mu.Lock()
	it.sum.hubUsers = len(users)
	it.mu.Unlock()
}
