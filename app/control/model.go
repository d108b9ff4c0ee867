package control

import (
	"context"
	"errors"
	"net"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"tinyrag/app/control/prefs"
	"tinyrag/app/llm"
	"tinyrag/app/llm/reach"
	"tinyrag/app/web"
)

// Model is the controller's part that keeps the settings and knows
// whether the model can be reached: it checks the endpoint at start, when
// the network or the settings change, and for the settings page's
// connection test. It publishes StateSettings, StateModel and
// StateConnTest.
type Model struct {
	c   *core
	ctl *Controller

	mu       sync.Mutex
	settings Settings
	state    ModelState
	test     ConnTest

	checking       bool
	checkAgain     bool // a check was asked for while one ran
	recheckPending bool // a re-check of network and model is scheduled
}

func newModel(c *core, ctl *Controller) *Model {
	m := &Model{c: c, ctl: ctl}
	m.settings = prefs.DefaultSettings().Normalized()
	if c.deps.Prefs != nil {
		if s, ok := c.deps.Prefs.Load(); ok {
			m.settings = s.Normalized()
		}
	}
	m.state = ModelState{Status: LLMUnknown, Net: NetOnline}
	return m
}

// unlock releases mu and publishes the named states as they were.
func (m *Model) unlock(states ...string) { m.c.publish(&m.mu, m.snapshotLocked, states...) }

func (m *Model) snapshotLocked(state string) any {
	switch state {
	case StateSettings:
		s := m.settings
		s.Personas = slices.Clone(s.Personas)
		return s
	case StateModel:
		st := m.state
		st.Models = slices.Clone(st.Models)
		return st
	case StateConnTest:
		return m.test
	}
	panic("control: the model part has no state " + state)
}

// republish publishes the settings and the model's state again (a root
// mounted again); all says the connection test's too.
func (m *Model) republish(all bool) {
	m.mu.Lock()
	if all {
		m.unlock(StateSettings, StateModel, StateConnTest)
		return
	}
	m.unlock(StateSettings, StateModel)
}

// State is the model's state as last published.
func (m *Model) State() ModelState {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.snapshotLocked(StateModel).(ModelState)
}

// Settings returns the current settings.
func (m *Model) Settings() Settings {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.snapshotLocked(StateSettings).(Settings)
}

// SetSettings normalizes, keeps and saves s. A changed endpoint is
// checked again at once.
func (m *Model) SetSettings(s Settings) {
	s = s.Normalized()
	s.Personas = slices.Clone(s.Personas)
	m.mu.Lock()
	recheck := s.Endpoint != m.settings.Endpoint || s.APIKey != m.settings.APIKey
	m.settings = s
	if rt := m.c.runtime(); rt != nil {
		m.state.Host, m.state.Proxy = modelHost(rt, s)
	}
	var saveErr error
	if m.c.deps.Prefs != nil {
		saveErr = m.c.deps.Prefs.Save(s)
	}
	m.unlock(StateSettings, StateModel)
	if saveErr != nil {
		m.ctl.ShowNotice("settings could not be saved: " + saveErr.Error())
	}
	if recheck {
		m.CheckModel()
	}
}

// hostChanged says where the endpoint is now that the runtime (or the
// site's config) is there.
func (m *Model) hostChanged() {
	m.mu.Lock()
	if rt := m.c.runtime(); rt != nil {
		m.state.Host, m.state.Proxy = modelHost(rt, m.settings)
	}
	m.unlock(StateModel)
}

// wentDown says the model turned out unreachable while answering.
func (m *Model) wentDown(why string) {
	m.mu.Lock()
	m.state.Status, m.state.Err, m.state.ErrKey = LLMDown, why, ""
	m.unlock(StateModel)
}

// CheckModel asks the endpoint for its models: success means a model is
// reachable; failure switches to answers made in the browser (app/nomodel)
// and tells why — the network, this app's server, or the model itself.
// The settings' "Test connection" is the same check. A question sent
// while the app was starting is asked once the check is done.
func (m *Model) CheckModel() {
	rt := m.c.runtime()
	m.mu.Lock()
	if rt == nil {
		m.mu.Unlock()
		return
	}
	if m.checking {
		m.checkAgain = true
		m.mu.Unlock()
		return
	}
	m.checking = true
	m.test = ConnTest{Testing: true}
	st := m.settings
	m.unlock(StateConnTest)
	m.c.goAsync(func() {
		models, sc, errKey, err, serverErr := m.check(rt, st)
		online := m.c.online()
		m.mu.Lock()
		m.checking = false
		if sc != nil {
			rt.Server = sc
		}
		m.test = ConnTest{Done: true}
		if err != nil || errKey != "" {
			msg := ""
			if err != nil {
				msg = err.Error()
			}
			m.state.Status, m.state.Err, m.state.ErrKey, m.state.Models = LLMDown, msg, errKey, nil
			m.state.Net = classifyNet(online, serverErr)
			m.test.Err, m.test.ErrKey = msg, errKey
			m.scheduleRecheckLocked()
		} else {
			m.state.Status, m.state.Err, m.state.ErrKey, m.state.Models, m.state.Net = LLMOK, "", "", models, NetOnline
			m.test.OK, m.test.Models = true, len(models)
		}
		again := m.checkAgain
		m.checkAgain = false
		m.unlock(StateModel, StateConnTest)
		m.ctl.Chat.askQueued()
		if again {
			m.CheckModel()
		}
	})
}

// check is one model check with settings st: the models, what the server
// said it offers (nil when it did not say), and why the model cannot be
// reached (errKey a text key, or err), with serverErr the failure to ask
// this app's server.
func (m *Model) check(rt *Runtime, st Settings) (models []string, sc *web.ServerConfig, errKey string, err, serverErr error) {
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Second)
	defer cancel()
	proxy, base := rt.Proxy(), rt.LLMBase(st)
	if proxy != "" {
		// The server says whether its proxy has a model behind it;
		// asking the proxy when it has none would only log a failed
		// request.
		var got web.ServerConfig
		if got, serverErr = web.LoadServerConfig(ctx, rt.HTTP, proxy); serverErr == nil {
			sc = &got
		}
	}
	switch {
	case base == "":
		errKey = "no_endpoint"
	case sc != nil && base == proxy+"/api/llm" && !sc.LLM.Configured:
		err = errors.New("this server has no language model configured (start it with --llm-url, or run Ollama or LM Studio locally)")
	default:
		if models, err = m.listModels(ctx, rt, st); err != nil && reach.IsFetchFailure(err) {
			err = errors.New(reach.Explain(ctx, rt.Origin, base, err).String())
		}
	}
	return models, sc, errKey, err, serverErr
}

// recheckEvery is how often the app looks for the network or the server
// while either is gone; the browser's online event is quicker when it
// comes, but a server coming back fires none.
const recheckEvery = 15 * time.Second

// scheduleRecheckLocked checks again after recheckEvery while the network
// or the server is gone.
func (m *Model) scheduleRecheckLocked() {
	if m.state.Net == NetOnline || m.recheckPending {
		return
	}
	m.recheckPending = true
	time.AfterFunc(recheckEvery, func() {
		m.mu.Lock()
		m.recheckPending = false
		due := m.state.Net != NetOnline && m.state.Status == LLMDown
		m.mu.Unlock()
		if due {
			m.CheckModel()
		}
	})
}

func (m *Model) listModels(ctx context.Context, rt *Runtime, s Settings) ([]string, error) {
	if m.c.deps.Models != nil {
		return m.c.deps.Models(ctx, s)
	}
	return rt.Chatter(s).Models(ctx)
}

// chatter is the model client for s.
func (m *Model) chatter(rt *Runtime, s Settings) llm.Chatter {
	if m.c.deps.Chatter != nil {
		return m.c.deps.Chatter(s)
	}
	return rt.Chatter(s)
}

// modelHost tells where the model endpoint for s is: its host when that is
// not this machine, and whether it is a tinyRAG server's proxy.
func modelHost(rt *Runtime, s Settings) (host string, proxy bool) {
	base := rt.LLMBase(s)
	proxy = base != "" && base == rt.Proxy()+"/api/llm"
	u, err := url.Parse(base)
	if err != nil || u.Hostname() == "" {
		return "", proxy
	}
	h := u.Hostname()
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return "", proxy
	}
	if ip := net.ParseIP(h); ip != nil && ip.IsLoopback() {
		return "", proxy
	}
	return u.Host, proxy
}

// EndpointPlaceholder shows what an empty endpoint means on this site:
// the endpoint the app then uses.
func (m *Model) EndpointPlaceholder() string {
	rt := m.c.runtime()
	if rt == nil {
		return "/api/llm"
	}
	if b := rt.LLMBase(Settings{}); b != "" {
		return b
	}
	return "http://127.0.0.1:11434/v1"
}

// EndpointHint is the text key saying what an empty endpoint means here:
// the server's proxy, the site's preset, or nothing at all on a static
// site without either.
func (m *Model) EndpointHint() string {
	rt := m.c.runtime()
	switch {
	case rt == nil || (rt.Proxy() != "" && (rt.SiteConfig() == nil || rt.SiteConfig().LLM == nil)):
		return "endpoint_hint"
	case rt.SiteConfig() != nil && rt.SiteConfig().LLM != nil:
		return "endpoint_hint_preset"
	}
	return "endpoint_hint_direct"
}

// CanRunGo reports whether nanoGo runs with settings s: allowed there and
// a runner at hand.
func (m *Model) CanRunGo(s Settings) bool {
	return m != nil && s.AllowNanoGo && m.c.deps.NanoGo != nil
}
