-- :checkhealth companion — the binary, its version, an ACP handshake, and
-- whether the model has credentials.
local acp = require('companion.acp')
local compat = require('companion.compat')
local config = require('companion.config')

local M = {}

-- binary reports the configured binary and its version; returns its path.
local function binary(h)
  local cmd = config.options.cmd
  local path = vim.fn.exepath(cmd)
  if path == '' then
    h.error(('companion binary not found: %q'):format(cmd),
      { 'Install it (go build -o ~/.local/bin/companion ./cmd/companion) or set cmd in setup().' })
    return nil
  end
  h.ok('binary: ' .. path)
  local out = vim.fn.system({ path, 'version' })
  if vim.v.shell_error == 0 then
    h.ok('version: ' .. vim.trim(out))
  else
    h.warn('`companion version` failed: ' .. vim.trim(out))
  end
  return path
end

-- handshake runs initialize against a fresh agent; returns its answer.
local function handshake(h)
  local client = acp.new({ cmd = config.command(), cwd = vim.fn.getcwd(), env = config.options.env })
  local done, res, err = false, nil, nil
  client:start(function(e, r)
    done, res, err = true, r, e
  end)
  vim.wait(5000, function() return done end, 20)
  client:stop()
  if not done then
    h.error('no answer to initialize within 5 s: ' .. table.concat(client.stderr, ' '))
  elseif err then
    h.error('initialize failed: ' .. tostring(err.message))
  else
    local info = compat.val(res.agentInfo) or {}
    h.ok(('protocol reached: ACP v%s, %s %s'):format(res.protocolVersion, info.name or '?', info.version or ''))
    if not client:supports('ide_context') then
      h.warn('the agent does not take IDE context (_companion/ide/contextUpdate)')
    end
  end
  return res
end

-- settings_file reads companion's user settings (JSON), if any.
local function settings_file(env)
  local path = env.COMPANION_SETTINGS or vim.env.COMPANION_SETTINGS
  if not path then
    local base = env.XDG_CONFIG_HOME or vim.env.XDG_CONFIG_HOME or (vim.env.HOME .. '/.config')
    path = base .. '/companion/settings.json'
  end
  local f = io.open(path, 'r')
  if not f then
    return nil, path
  end
  local ok, data = pcall(vim.json.decode, f:read('*a'))
  f:close()
  return ok and type(data) == 'table' and data or nil, path
end

-- uses_script tells whether the args run a scripted model (no key needed).
local function uses_script(args)
  for _, a in ipairs(args or {}) do
    if a == '--demo' or a == '-demo' or a == '--script' or a == '-script' then
      return true
    end
  end
  return false
end

-- credentials reports where the model's key comes from.
local function credentials(h)
  local env = config.options.env or {}
  if uses_script(config.options.args) then
    h.ok('scripted model (--script/--demo): no API key needed')
    return
  end
  local function get(name) return env[name] or vim.env[name] end
  for _, name in ipairs({ 'GEMINI_API_KEY', 'GOOGLE_API_KEY', 'OPENAI_API_KEY', 'COMPANION_SCRIPT' }) do
    if get(name) and get(name) ~= '' then
      h.ok('key configured: ' .. name .. ' is set')
      return
    end
  end
  if get('GOOGLE_GENAI_USE_VERTEXAI') == 'true' then
    h.ok('Vertex AI selected (GOOGLE_GENAI_USE_VERTEXAI)')
    return
  end
  local settings, path = settings_file(env)
  if settings and (settings.apiKey or settings.vertexAI or settings.script
      or (type(settings.openai) == 'table' and settings.openai.apiKey)) then
    h.ok('key configured in ' .. path)
    return
  end
  h.error('no model key found', { 'Set GEMINI_API_KEY (in your shell or setup{ env = {...} }), or apiKey in ' .. path })
end

-- check is what :checkhealth companion runs.
function M.check()
  local h = compat.health()
  h.start('companion')
  local v = vim.version()
  h.info(('Neovim %d.%d.%d; usage shown in the %s'):format(v.major, v.minor, v.patch,
    compat.has_winbar() and 'winbar' or 'statusline (no winbar before 0.8)'))
  if binary(h) then
    handshake(h)
  end
  credentials(h)
end

return M
