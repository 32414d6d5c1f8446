-- :CompanionStats: the session's figures from the agent's
-- _companion/session/stats extension method (model requests, errors, tokens
-- by type, time in the model and in tools, tool calls and who decided them,
-- and the session's language servers: state and memory, a missing one with
-- its install command), shown in a scratch float. `q` or <Esc> closes it.
local M = {}

local function plural(n, one)
  return string.format('%d %s', n, n == 1 and one or one .. 's')
end

local function percent(r, of)
  if (of or 0) == 0 then
    return 'n/a'
  end
  return string.format('%.1f%%', (r or 0) * 100)
end

-- seconds writes 1234 ms as 1.2s and 40 ms as 40ms.
function M.seconds(ms)
  ms = ms or 0
  if ms < 1000 then
    return string.format('%dms', math.floor(ms + 0.5))
  end
  return string.format('%.1fs', ms / 1000)
end

local function tokens_line(t, hit)
  t = t or {}
  return string.format('%d prompt, %d output, %d cached (%s cache hits), %d thoughts, %d total',
    t.prompt or 0, t.output or 0, t.cached or 0, percent(hit, t.prompt), t.thoughts or 0, t.total or 0)
end

-- lines renders the agent's answer as the float's lines.
function M.lines(st)
  local d = st.decisions or {}
  local out = {
    'Companion session stats',
    '',
    string.format('Model requests: %d (%s)', st.requests or 0, plural(st.errors or 0, 'error')),
    'Tokens: ' .. tokens_line(st.tokens, st.cacheHitRatio),
    string.format('Time: %s in the model, %s in tools', M.seconds(st.modelTimeMs), M.seconds(st.toolTimeMs)),
    string.format('Tool calls: %d (%d succeeded, %d failed; %s success)', st.toolCalls or 0, st.toolSuccess or 0,
      st.toolFailed or 0, percent(st.successRate, st.toolCalls)),
    string.format('Decisions: allowed %d by policy or rule, %d by mode, %d by you, %d by a hook; '
      .. '%d rejected, %d denied by policy, %d blocked by a hook',
      d.policy or 0, d.mode or 0, d.user or 0, d.hook or 0, d.rejected or 0, d.denied or 0, d.blocked or 0),
  }
  if type(st.languageServers) == 'table' then
    table.insert(out, '')
    if #st.languageServers == 0 then
      table.insert(out, 'Language servers: none for this workspace')
    else
      table.insert(out, 'Language servers:')
      for _, l in ipairs(st.languageServers) do
        table.insert(out, '- ' .. l)
      end
    end
  end
  local models, tools = st.models or {}, st.tools or {}
  if #models > 0 then
    table.insert(out, '')
    table.insert(out, 'Per model:')
  end
  for _, m in ipairs(models) do
    table.insert(out, string.format('- %s: %s, %s; %s; %s', m.name, plural(m.requests or 0, 'request'),
      plural(m.errors or 0, 'error'), tokens_line(m.tokens, m.cacheHitRatio), M.seconds(m.timeMs)))
  end
  table.insert(out, '')
  if #tools == 0 then
    table.insert(out, 'No tool calls yet.')
    return out
  end
  table.insert(out, 'Per tool:')
  for _, t in ipairs(tools) do
    table.insert(out, string.format('- %s: %s, %d succeeded, %d failed; %s', t.name, plural(t.calls or 0, 'call'),
      t.success or 0, t.failed or 0, M.seconds(t.timeMs)))
  end
  return out
end

-- open shows lines in a scratch float (the buffer's name is
-- companion://stats); returns the buffer and window.
function M.open(lines)
  local buf = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.api.nvim_buf_set_option(buf, 'modifiable', false)
  vim.api.nvim_buf_set_option(buf, 'bufhidden', 'wipe')
  vim.api.nvim_buf_set_option(buf, 'filetype', 'companion-stats')
  pcall(vim.api.nvim_buf_set_name, buf, 'companion://stats')
  local width = 20
  for _, l in ipairs(lines) do
    width = math.max(width, vim.fn.strdisplaywidth(l))
  end
  width = math.min(width, math.max(20, vim.o.columns - 4))
  local height = math.min(#lines, math.max(1, vim.o.lines - 4))
  local win = vim.api.nvim_open_win(buf, true, {
    relative = 'editor', style = 'minimal', border = 'rounded', width = width, height = height,
    row = math.floor((vim.o.lines - height) / 2) - 1, col = math.floor((vim.o.columns - width) / 2),
  })
  vim.api.nvim_win_set_option(win, 'wrap', true)
  for _, key in ipairs({ 'q', '<Esc>' }) do
    vim.keymap.set('n', key, function()
      pcall(vim.api.nvim_win_close, win, true)
    end, { buffer = buf, nowait = true, desc = 'companion: close the stats' })
  end
  return buf, win
end

-- show asks the agent for the current session's figures and opens them;
-- done(err, buf) is called when given (tests).
function M.show(app, done)
  done = done or function() end
  local function fail(msg)
    vim.notify('companion: ' .. msg, vim.log.levels.WARN)
    done(msg)
  end
  if not (app and app.client and app.session) then
    return fail('no session yet: open the chat with :Companion first')
  end
  if not app.client:supports('stats') then
    return fail('the agent does not offer session stats')
  end
  app.client:stats(app.session.id, function(err, res)
    vim.schedule(function()
      if err or type(res) ~= 'table' then
        return fail('could not get the stats: ' .. tostring(err and err.message or 'no answer'))
      end
      local buf = M.open(M.lines(res))
      done(nil, buf)
    end)
  end)
end

return M
