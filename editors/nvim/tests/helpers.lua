-- Test helpers: a fresh workspace and state per test, the plugin set up
-- against the real companion binary ($COMPANION_BIN) on a scripted model,
-- and waiting on the event loop for conditions.
local M = {}

M.root = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h:h')
M.WAIT_MS = tonumber(vim.env.COMPANION_TEST_WAIT_MS or '') or 10000

-- bin returns $COMPANION_BIN, failing clearly when it is unusable.
function M.bin()
  local bin = vim.env.COMPANION_BIN
  assert(bin and bin ~= '', 'set COMPANION_BIN to the absolute path of the companion binary')
  assert(vim.fn.executable(bin) == 1, 'COMPANION_BIN is not executable: ' .. bin)
  return bin
end

-- fixture returns the path of tests/fixtures/NAME.json.
function M.fixture(name)
  local p = M.root .. '/tests/fixtures/' .. name .. '.json'
  assert(vim.fn.filereadable(p) == 1, 'missing fixture ' .. p)
  return p
end

-- wait runs the event loop until cond() is true, failing with what after
-- WAIT_MS.
function M.wait(cond, what)
  local ok = vim.wait(M.WAIT_MS, function()
    local good, res = pcall(cond)
    return good and res
  end, 10)
  assert(ok, 'timed out waiting for ' .. what)
end

-- write_file writes content to path (folders made).
function M.write_file(path, content)
  vim.fn.mkdir(vim.fn.fnamemodify(path, ':h'), 'p')
  local f = assert(io.open(path, 'wb'))
  f:write(content)
  f:close()
end

-- read_file returns a file's content.
function M.read_file(path)
  local f = assert(io.open(path, 'rb'))
  local s = f:read('*a')
  f:close()
  return s
end

-- start sets up a workspace (cwd) and state dirs, and the plugin with the
-- fixture's script; opts are merged into setup(). Returns the workspace.
-- state reuses an earlier workspace's state (a restart).
function M.start(fixture, opts, state)
  local ws = state and state.ws or vim.fn.resolve(vim.fn.tempname())
  vim.fn.mkdir(ws .. '/home/.config', 'p')
  vim.fn.mkdir(ws .. '/project', 'p')
  vim.cmd('cd ' .. vim.fn.fnameescape(ws .. '/project'))
  local setup = vim.tbl_deep_extend('force', {
    cmd = M.bin(),
    args = { 'acp', '--script', M.fixture(fixture), '--log-file', ws .. '/agent.log', '--log-level', 'debug' },
    env = { HOME = ws .. '/home', XDG_CONFIG_HOME = ws .. '/home/.config', XDG_STATE_HOME = ws .. '/home/.state',
      GEMINI_API_KEY = '', GOOGLE_API_KEY = '' },
    context = { debounce_ms = 20 },
    layout = 'split',
  }, opts or {})
  require('companion').setup(setup)
  -- A test that meets a picker it did not expect sees it dismissed (and
  -- recorded) rather than a prompt waiting forever for keys.
  M.unexpected = {}
  vim.ui.select = function(_, o, cb)
    table.insert(M.unexpected, o.prompt or '?')
    cb(nil)
  end
  return { ws = ws, project = ws .. '/project' }
end

-- app returns the plugin's running state.
function M.app()
  return require('companion.app').get()
end

-- transcript returns the chat buffer's text.
function M.transcript()
  local app = M.app()
  return app.chat and app.chat.transcript:text() or ''
end

-- wait_turn waits for the running prompt to finish.
function M.wait_turn()
  M.wait(function() return M.app().busy == nil and M.app().session ~= nil end, 'the turn to end')
end

-- stub_select replaces vim.ui.select with choose(items, opts) returning
-- the item to pick (nil = dismiss); the calls are recorded.
function M.stub_select(choose)
  local calls = {}
  vim.ui.select = function(items, opts, cb)
    calls[#calls + 1] = { items = items, opts = opts }
    cb(choose(items, opts))
  end
  return calls
end

-- by_kind returns a chooser of the first option of a permission kind.
function M.by_kind(kind)
  return function(items)
    for _, o in ipairs(items) do
      if o.kind == kind then
        return o
      end
    end
  end
end

-- type_on plays a user in the current window: Insert mode, prompt sent
-- with <C-s>, then typing on, a key every 15 ms: the keys of before until
-- arrived() is true, then those of after, then <Esc>. It returns once
-- Insert mode ends (after WAIT_MS at the latest, when nothing arrived),
-- with the ticks at which the keys would have gone elsewhere (another
-- window, or not Insert mode).
function M.type_on(prompt, before, after, arrived)
  local win = vim.api.nvim_get_current_win()
  local k, j, stolen = 0, 0, {}
  local deadline = vim.loop.now() + M.WAIT_MS
  local timer = vim.loop.new_timer()
  timer:start(15, 15, vim.schedule_wrap(function()
    if vim.api.nvim_get_current_win() ~= win or vim.api.nvim_get_mode().mode ~= 'i' then
      stolen[#stolen + 1] = vim.api.nvim_buf_get_name(0) .. ' ' .. vim.api.nvim_get_mode().mode
    end
    if j >= #after then
      return
    end
    if vim.loop.now() > deadline then -- nothing came: stop typing, the test fails
      j = #after
      vim.api.nvim_input('<Esc>')
    elseif not arrived() then
      if k < #before then
        k = k + 1
        vim.api.nvim_input(before:sub(k, k))
      end
    else
      j = j + 1
      vim.api.nvim_input(after:sub(j, j))
      if j == #after then
        vim.defer_fn(function() vim.api.nvim_input('<Esc>') end, 30)
      end
    end
  end))
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes('A' .. prompt .. '<C-s>', true, false, true), 'x!', false)
  timer:stop()
  timer:close()
  return stolen
end

-- reset stops the agent and cleans the editor between tests.
function M.reset()
  require('companion.app').reset()
  vim.ui.select = M.original_select
  vim.ui.input = M.original_input
  pcall(vim.cmd, 'silent! tabonly!')
  pcall(vim.cmd, 'silent! only!')
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if b ~= vim.api.nvim_get_current_buf() then
      pcall(vim.api.nvim_buf_delete, b, { force = true })
    end
  end
  vim.cmd('enew!')
end

M.original_select = vim.ui.select
M.original_input = vim.ui.input

return M
