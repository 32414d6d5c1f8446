-- session/update → what the user sees: transcript blocks, the slash
-- commands for completion, config options, modes, usage and title for the
-- status line.
local compat = require('companion.compat')
local complete = require('companion.complete')

local M = {}

-- option_of returns the config option of a category ('mode', 'model').
function M.option_of(options, category)
  for _, o in ipairs(options or {}) do
    if o.category == category or (compat.is_nil(o.category) and o.id == category) then
      return o
    end
  end
  return nil
end

-- value_name returns the display name of a select option's current value.
function M.value_name(opt)
  if not opt then
    return nil
  end
  for _, v in ipairs(M.flat_values(opt)) do
    if v.value == opt.currentValue then
      return v.name
    end
  end
  return tostring(opt.currentValue)
end

-- flat_values lists a select option's values, groups flattened.
function M.flat_values(opt)
  local out = {}
  for _, v in ipairs(compat.val(opt.options) or {}) do
    if v.group ~= nil and type(v.options) == 'table' then
      for _, inner in ipairs(v.options) do
        out[#out + 1] = inner
      end
    else
      out[#out + 1] = v
    end
  end
  return out
end

-- text_of returns the text to show for a content block.
local function text_of(block)
  if type(block) ~= 'table' then
    return ''
  end
  if block.type == 'text' then
    return block.text or ''
  elseif block.type == 'resource' and type(block.resource) == 'table' then
    return ('\n[@%s]'):format(vim.fn.fnamemodify(vim.uri_to_fname(block.resource.uri or 'file:///'), ':~:.'))
  elseif block.type == 'resource_link' then
    return ('\n[@%s]'):format(block.name or block.uri or '')
  end
  return ('[%s]'):format(tostring(block.type))
end

-- chunk streams message and thought chunks. The user's own prompt is
-- echoed locally, so user chunks are drawn only while replaying.
local function chunk(app, kind, u)
  if kind == 'user' and not (app.session and app.session.loading) then
    return
  end
  app.chat.transcript:append_text(kind, text_of(u.content), compat.val(u.messageId))
end

-- handlers of each sessionUpdate variant.
local handlers = {
  user_message_chunk = function(app, u) chunk(app, 'user', u) end,
  agent_message_chunk = function(app, u) chunk(app, 'agent', u) end,
  agent_thought_chunk = function(app, u) chunk(app, 'thought', u) end,
  tool_call = function(app, u) app.chat.transcript:tool(u); app:track_change(u.toolCallId) end,
  tool_call_update = function(app, u) app.chat.transcript:tool(u); app:track_change(u.toolCallId) end,
  plan = function(app, u) app.chat.transcript:plan(u.entries) end,
  available_commands_update = function(_, u) complete.set_commands(u.availableCommands) end,
  config_option_update = function(app, u)
    app.session.options = u.configOptions or {}
  end,
  current_mode_update = function(app, u)
    if type(app.session.modes) == 'table' then
      app.session.modes.currentModeId = u.currentModeId
    end
  end,
  usage_update = function(app, u)
    app.session.usage = { used = u.used, size = u.size, cost = compat.val(u.cost) }
  end,
  session_info_update = function(app, u)
    if u.title ~= nil then
      app.session.title = compat.val(u.title)
    end
  end,
  notice = function(app, u)
    local desc = compat.val(u.description)
    app:note(('[%s] %s%s'):format(u.severity or 'info', u.title or '', desc and (': ' .. desc) or ''))
  end,
}

-- apply renders one update of the current session.
function M.apply(app, update)
  local fn = handlers[update.sessionUpdate]
  if not fn then
    return
  end
  app:view()
  fn(app, update)
  app:render_status()
end

-- tokens formats a token count: 950, 12.3k, 1.0M.
local function tokens(n)
  if n >= 1e6 then
    return ('%.1fM'):format(n / 1e6)
  elseif n >= 1e3 then
    return ('%.1fk'):format(n / 1e3)
  end
  return tostring(n)
end

-- usage_text formats the context usage and cost.
function M.usage_text(usage)
  if not usage or type(usage.used) ~= 'number' then
    return nil
  end
  local s = ('ctx %s/%s'):format(tokens(usage.used), tokens(usage.size or 0))
  if (usage.size or 0) > 0 then
    s = s .. (' (%d%%)'):format(math.floor(usage.used * 100 / usage.size + 0.5))
  end
  if type(usage.cost) == 'table' and usage.cost.amount then
    s = s .. (' · %.2f %s'):format(usage.cost.amount, usage.cost.currency or '')
  end
  return s
end

-- status_parts lists what the status line says about session s.
local function status_parts(app, s)
  local parts = {}
  -- An edit waiting for review matters most: the turn waits for it.
  local reviews = #require('companion.diff').pending()
  parts[#parts + 1] = reviews > 0 and (':CompanionReview (' .. reviews .. ')') or nil
  parts[#parts + 1] = app.changed and not app.changed.looked
    and (':CompanionChanges (%d files)'):format(app.changed:count()) or nil
  local asked = app.chat and require('companion.ask').count(app.chat.buf) or 0
  parts[#parts + 1] = asked > 0 and 'permission: y/a/n/c in the chat' or nil
  local mode = M.value_name(M.option_of(s.options, 'mode'))
  if not mode and type(s.modes) == 'table' then
    mode = s.modes.currentModeId
  end
  parts[#parts + 1] = mode and ('mode: ' .. mode) or nil
  local model = M.value_name(M.option_of(s.options, 'model'))
  parts[#parts + 1] = model and ('model: ' .. model) or nil
  parts[#parts + 1] = M.usage_text(s.usage)
  parts[#parts + 1] = app.busy and 'working…' or nil
  -- The title goes last, and short: the rest matters more.
  if s.title then
    local t = s.title
    parts[#parts + 1] = vim.fn.strchars(t) > 40 and (vim.fn.strcharpart(t, 0, 39) .. '…') or t
  end
  return parts
end

-- separator between the parts of the status line.
local sep = ' │ '

-- clip shortens text to at most room display cells, ending in '…'.
local function clip(text, room)
  if vim.fn.strdisplaywidth(text) <= room then
    return text
  end
  local n = vim.fn.strchars(text)
  while n > 0 and vim.fn.strdisplaywidth(vim.fn.strcharpart(text, 0, n)) > room - 1 do
    n = n - 1
  end
  return vim.fn.strcharpart(text, 0, n) .. '…'
end

-- fit joins parts (most important first) into at most width cells: a part
-- that does not fit whole is shortened when a useful piece of it fits, and
-- the parts after it are left out.
local function fit(parts, width)
  local out = ' ' .. clip(parts[1], width - 1)
  for i = 2, #parts do
    local room = width - vim.fn.strdisplaywidth(out .. sep)
    local p = parts[i]
    if vim.fn.strdisplaywidth(p) > room then
      if room >= 8 then
        out = out .. sep .. clip(p, room)
      end
      break
    end
    out = out .. sep .. p
  end
  return out
end

-- status_line is the text above (or below) the chat, fitted to width
-- cells (default 80, the split's default width): the session's mode,
-- model, usage, whether it works and its title; before a session, the
-- agent's state.
function M.status_line(app, width)
  local parts = { 'companion' }
  if not app.client then
    parts[#parts + 1] = 'not running'
  elseif not app.session then
    parts[#parts + 1] = 'starting…'
  else
    local of_session = status_parts(app, app.session)
    if #of_session > 0 then
      parts = of_session
    end
  end
  return fit(parts, width or 80)
end

return M
