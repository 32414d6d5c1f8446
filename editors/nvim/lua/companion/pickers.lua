-- vim.ui.select pickers: the session's config options (mode, model, thought
-- level, ...) and the saved sessions to load.
local compat = require('companion.compat')
local updates = require('companion.updates')

local M = {}

-- choose_value asks for a new value of one config option and sets it.
function M.choose_value(app, opt)
  if opt.type == 'boolean' then
    vim.ui.select({ true, false }, {
      prompt = opt.name .. ':',
      format_item = function(v) return (v and 'on' or 'off') .. (v == opt.currentValue and '  (current)' or '') end,
    }, function(v)
      if v ~= nil then app:set_option(opt.id, v) end
    end)
    return
  end
  vim.ui.select(updates.flat_values(opt), {
    prompt = opt.name .. ':',
    format_item = function(v)
      local desc = compat.val(v.description)
      return v.name .. (v.value == opt.currentValue and '  (current)' or '') .. (desc and ('  ' .. desc) or '')
    end,
    kind = 'companion_config_option',
  }, function(v)
    if v then app:set_option(opt.id, v.value) end
  end)
end

-- ready tells whether a session is there to configure, saying so if not.
local function ready(app)
  if app.client and app.session and not app.session.loading then
    return true
  end
  vim.notify('companion: no session yet; open the chat with :Companion', vim.log.levels.WARN)
  return false
end

-- category picks the value of the option of a category ('mode', 'model').
function M.category(app, category)
  if not ready(app) then
    return
  end
  local opt = updates.option_of(app.session.options, category)
  if not opt and category == 'mode' and type(app.session.modes) == 'table' then
    M.legacy_mode(app)
    return
  end
  if not opt then
    vim.notify(('companion: the agent offers no %s option'):format(category), vim.log.levels.WARN)
    return
  end
  M.choose_value(app, opt)
end

-- legacy_mode picks from the session's modes (agents without a mode
-- config option) and sets it with session/set_mode.
function M.legacy_mode(app)
  local modes = app.session.modes
  vim.ui.select(modes.availableModes or {}, {
    prompt = 'Mode:',
    format_item = function(m)
      return m.name .. (m.id == modes.currentModeId and '  (current)' or '')
    end,
  }, function(m)
    if not m then return end
    app.client:set_mode(app.session.id, m.id, function(err)
      if err then
        vim.notify('companion: ' .. tostring(err.message), vim.log.levels.ERROR)
      else
        modes.currentModeId = m.id
        app:render_status()
      end
    end)
  end)
end

-- options picks one of all config options, then its value.
function M.options(app)
  if not ready(app) then
    return
  end
  vim.ui.select(app.session.options or {}, {
    prompt = 'Session option:',
    format_item = function(o)
      local cur = o.type == 'boolean' and (o.currentValue and 'on' or 'off') or updates.value_name(o)
      return ('%s: %s'):format(o.name, cur)
    end,
  }, function(o)
    if o then M.choose_value(app, o) end
  end)
end

-- session_label shows a saved session in the list.
local function session_label(s)
  local title = compat.val(s.title) or '(untitled)'
  local at = compat.val(s.updatedAt)
  return at and ('%s  · %s'):format(title, at:gsub('T', ' '):gsub('%..*', ''):gsub('Z$', '')) or title
end

-- sessions lists the saved sessions of the working directory and loads
-- the one picked.
function M.sessions(app)
  app:ensure_client(function(err)
    if err then return end
    if not app.client:supports('list') or not app.client:supports('load') then
      vim.notify('companion: the agent cannot list or load sessions', vim.log.levels.WARN)
      return
    end
    app.client:list_sessions(vim.fn.getcwd(), function(lerr, list)
      if lerr then
        vim.notify('companion: ' .. tostring(lerr.message), vim.log.levels.ERROR)
        return
      end
      vim.ui.select(list, { prompt = 'Load session:', format_item = session_label, kind = 'companion_session' },
        function(s)
          if s then
            app:view():open()
            app:load(s.sessionId)
          end
        end)
    end)
  end)
end

return M
