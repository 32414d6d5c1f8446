-- session/request_permission: the agent asks before a risky tool call.
-- Edits (a "diff" in the tool call's content) open a diff tab; everything
-- else is a vim.ui.select over the request's own options. A cancelled turn
-- or request answers "cancelled".
local config = require('companion.config')
local compat = require('companion.compat')

local M = {}

-- pending holds the unanswered requests: request object -> answer state.
local pending = {}

-- first_diff returns the first diff item of a tool call's content.
function M.first_diff(tool_call)
  for _, c in ipairs(compat.val(tool_call.content) or {}) do
    if c.type == 'diff' then
      return c
    end
  end
  return nil
end

-- pick returns the first option whose kind starts with prefix, preferring
-- the exact kind.
local function pick(options, prefix, exact)
  local found
  for _, o in ipairs(options) do
    if o.kind == exact then
      return o
    end
    if not found and vim.startswith(o.kind or '', prefix) then
      found = o
    end
  end
  return found
end

-- of_kind lists the options whose kind starts with prefix.
local function of_kind(options, prefix)
  return vim.tbl_filter(function(o)
    return vim.startswith(o.kind or '', prefix)
  end, options)
end

-- describe is the question shown in the picker.
function M.describe(tool_call)
  local title = compat.val(tool_call.title) or 'The agent wants to run a tool'
  local raw = compat.val(tool_call.rawInput)
  if type(raw) == 'table' and type(raw.command) == 'string' and not title:find(raw.command, 1, true) then
    return ('%s: %s'):format(title, raw.command)
  end
  return title
end

-- new_answer makes the one-shot answer of req; on_done runs after it.
local function new_answer(req, session_id, on_done)
  local state = { session_id = session_id }
  function state.answer(outcome, meta)
    if state.done then
      return
    end
    state.done = true
    pending[req] = nil
    local res = { outcome = outcome }
    if meta then
      res._meta = meta
    end
    req.reply(res)
    if state.on_answer then
      state.on_answer(outcome)
    end
    if state.ui_close then
      state.ui_close()
    end
    if on_done then
      on_done()
    end
  end
  function state.selected(option, meta)
    state.answer({ outcome = 'selected', optionId = option.optionId }, meta)
  end
  function state.cancelled()
    state.answer({ outcome = 'cancelled' })
  end
  pending[req] = state
  req.on_cancel(state.cancelled)
  return state
end

-- stop_turn is the extra choice of the permission list that rejects the
-- call and cancels the whole turn.
M.stop_turn = { name = 'Reject and cancel the turn', kind = 'companion_cancel_turn' }

-- reject answers with the request's "reject once" option (cancelled when
-- it has none): the user said no to this call.
local function reject(params, state)
  local option = pick(params.options or {}, 'reject', 'reject_once')
  if option then
    state.selected(option)
  else
    state.cancelled()
  end
end

-- chat_prompt tells whether permissions are asked in the chat (option
-- permission_prompt: 'chat', 'select', or 'auto': in the chat unless
-- vim.ui.select was replaced by a UI plugin).
local function chat_prompt()
  local how = config.options.permission_prompt or 'auto'
  if how == 'auto' then
    return require('companion.ask').builtin_select()
  end
  return how == 'chat'
end

-- with_note answers a refused mode switch (exit_plan_mode's "keep
-- planning", enter_plan_mode's "no"): the user may add a note for the
-- agent, sent as _meta.companion.message. Dismissing the note sends none.
local function with_note(params, state, option)
  local kind = compat.val((params.toolCall or {}).kind)
  if kind ~= 'switch_mode' or not vim.startswith(option.kind or '', 'reject') then
    return false
  end
  vim.ui.input({ prompt = option.name .. ': a note for the agent (optional): ' }, function(text)
    local note = text and vim.trim(text) or ''
    state.selected(option, note ~= '' and { companion = { message = note } } or nil)
  end)
  return true
end

-- answer acts on the user's choice from a list or the chat: an option,
-- stop_turn (the cancel goes first: it answers this request "cancelled"
-- with the rest, so the agent cannot go on before it hears of it), or
-- nothing (dismissed: a rejection).
local function answer(params, state, ui, choice)
  if choice == M.stop_turn then
    ui.cancel_turn()
    if not state.done then
      reject(params, state)
    end
  elseif choice then
    if not with_note(params, state, choice) then
      state.selected(choice)
    end
  else
    reject(params, state)
  end
end

-- select_all offers options with vim.ui.select; on_choice(choice).
local function select_all(params, options, on_choice)
  vim.ui.select(options, {
    prompt = M.describe(params.toolCall or {}),
    format_item = function(o)
      return o.name
    end,
    kind = 'companion_permission',
  }, on_choice)
end

-- ask_chat asks in the chat, without taking the keyboard: keys in the
-- chat window answer; "o" offers every option with vim.ui.select.
local function ask_chat(params, state, ui, all)
  local options = params.options or {}
  local function choose(choice)
    answer(params, state, ui, choice)
  end
  local close = ui.ask(M.describe(params.toolCall or {}), options, M.stop_turn, choose, function()
    select_all(params, all, function(choice)
      if choice then -- dismissing this list leaves the question open
        choose(choice)
      end
    end)
  end)
  state.on_answer = function(outcome)
    local text = 'cancelled'
    for _, o in ipairs(options) do
      if outcome.optionId == o.optionId then
        text = o.name
      end
    end
    close(text)
  end
end

-- ask_select offers the request's options with vim.ui.select, and a way
-- to cancel the turn (or asks in the chat, see chat_prompt). Dismissing
-- the list rejects the call. The chat is redrawn first, so the call's
-- card shows while the list asks.
local function ask_select(params, state, ui)
  local options = vim.list_extend({}, params.options or {})
  if ui and ui.cancel_turn then
    options[#options + 1] = M.stop_turn
  end
  if ui and ui.ask and chat_prompt() then
    ask_chat(params, state, ui, options)
    return
  end
  pcall(vim.cmd, 'redraw')
  select_all(params, options, function(choice)
    answer(params, state, ui, choice)
  end)
end

-- accept_with answers an accepted diff: with one allow option at once,
-- with several after the user picks one (a dismissed picker keeps the
-- review open). done(ok) tells the review whether to close.
local function accept_with(params, state, text, changed, done, review)
  local meta = changed and { companion = { modifiedContent = text } } or nil
  local allow = of_kind(params.options or {}, 'allow')
  if #allow == 0 then
    state.cancelled()
    done(true)
    return
  end
  if #allow == 1 then
    done(true)
    state.selected(allow[1], meta)
    return
  end
  local function chosen(choice)
    if choice then
      done(true)
      state.selected(choice, meta)
    else
      done(false)
    end
  end
  if review and chat_prompt() then -- the scope on the review's bar, by number
    review:choose(allow, chosen)
    return
  end
  vim.ui.select(allow, {
    prompt = 'Allow this edit: ' .. M.describe(params.toolCall or {}),
    format_item = function(o) return o.name end,
    kind = 'companion_permission',
  }, chosen)
end

-- ask_diff makes the review of the edit, without focus: ui.review_ready
-- tells the user it waits (the tab opens on request).
local function ask_diff(params, diff, state, ui)
  local review = require('companion.diff').open({
    path = diff.path,
    tool_call_id = (params.toolCall or {}).toolCallId,
    old_text = compat.val(diff.oldText),
    new_text = diff.newText or '',
    on_accept = function(text, changed, done, review)
      accept_with(params, state, text, changed, done, review)
    end,
    on_reject = function()
      reject(params, state)
    end,
  })
  state.ui_close = function()
    review:close()
  end
  if ui and ui.review_ready then
    ui.review_ready(review, params)
  end
end

-- handle answers one session/request_permission request (asynchronously).
-- on_done runs once the answer went out. ui (optional) is the chat's side:
-- review_ready(review, params) when an edit waits for review, cancel_turn()
-- when the user rejects a call and stops the turn.
function M.handle(params, req, on_done, ui)
  local state = new_answer(req, params.sessionId, on_done)
  local diff = M.first_diff(params.toolCall or {})
  if diff and config.options.diff.enabled ~= false then
    ask_diff(params, diff, state, ui)
  else
    ask_select(params, state, ui)
  end
  return nil
end

-- cancel_session answers every pending request of the session with
-- "cancelled" (ACP requires it after session/cancel).
function M.cancel_session(session_id)
  for _, state in pairs(vim.tbl_values(pending)) do
    if state.session_id == session_id then
      state.cancelled()
    end
  end
end

-- count returns how many requests wait for the user.
function M.count()
  return #vim.tbl_keys(pending)
end

return M
