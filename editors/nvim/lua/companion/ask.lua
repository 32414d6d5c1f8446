-- A permission question asked in the chat without blocking: a card with
-- the question and one key per answer (y allow once, a allow always, n
-- reject, c reject and cancel the turn, o every option), mapped in the
-- transcript buffer while it waits. Neovim 0.7's own vim.ui.select is a
-- "Type number and <Enter>" prompt that takes the keyboard; this does not.
local M = {}

-- builtin_select tells whether vim.ui.select is still Neovim's own (a
-- plugin such as dressing.nvim replaces it with a UI of its own).
function M.builtin_select()
  local ok, info = pcall(debug.getinfo, vim.ui.select, 'S')
  return ok and type(info) == 'table' and tostring(info.source):find('vim/ui.lua', 1, true) ~= nil
end

-- first returns the first option of a kind.
local function first(options, kind)
  for _, o in ipairs(options) do
    if o.kind == kind then
      return o
    end
  end
  return nil
end

-- M.keys lists the answers offered: the key, the option kind it picks
-- (or what it does).
M.keys = {
  { key = 'y', kind = 'allow_once' },
  { key = 'a', kind = 'allow_always' },
  { key = 'n', kind = 'reject_once' },
  { key = 'c', stop = true },
  { key = 'o', more = true },
}

-- choices pairs keys with what they answer for these options.
function M.choices(options, stop)
  local out, covered = {}, 0
  for _, k in ipairs(M.keys) do
    if k.kind then
      local o = first(options, k.kind)
      if o then
        out[#out + 1] = { key = k.key, option = o, name = o.name }
        covered = covered + 1
      end
    elseif k.stop and stop then
      out[#out + 1] = { key = k.key, option = stop, name = stop.name }
    elseif k.more and #options > covered then -- some options have no key
      out[#out + 1] = { key = k.key, more = true, name = 'every choice' }
    end
  end
  return out
end

-- lines is the question's card.
local function lines(question, choices)
  local out = { '? [permission] ' .. question }
  for _, c in ipairs(choices) do
    out[#out + 1] = ('  %s  %s'):format(c.key, c.name)
  end
  out[#out + 1] = '  (keys in this chat window)'
  return out
end

-- waiting maps a transcript buffer to its open questions, the oldest
-- first: the keys answer that one.
local waiting = {}

-- unmap removes the answer keys from buf.
local function unmap(buf)
  for _, k in ipairs(M.keys) do
    pcall(vim.keymap.del, 'n', k.key, { buffer = buf })
  end
end

-- press answers the oldest question of buf with key.
local function press(buf, key)
  local q = (waiting[buf] or {})[1]
  if not q then
    return
  end
  for _, c in ipairs(q.choices) do
    if c.key == key then
      if c.more then
        q.more()
      else
        q.choose(c.option)
      end
      return
    end
  end
end

-- map installs the answer keys in buf.
local function map(buf)
  for _, k in ipairs(M.keys) do
    vim.keymap.set('n', k.key, function() press(buf, k.key) end,
      { buffer = buf, nowait = true, silent = true, desc = 'companion: answer the permission question' })
  end
end

-- open asks question in transcript t (buffer buf): choose(option) runs
-- with the picked option, more() offers every option. Returns close(text),
-- which ends the question, its card then saying text.
function M.open(t, buf, question, options, stop, choose, more)
  local q = { choices = M.choices(options, stop), choose = choose, more = more }
  q.index = t:add({ kind = 'ask', lines = lines(question, q.choices) })
  q.block = t.blocks[q.index]
  waiting[buf] = waiting[buf] or {}
  table.insert(waiting[buf], q)
  if #waiting[buf] == 1 then
    map(buf)
  end
  return function(text)
    local list = waiting[buf] or {}
    for i, other in ipairs(list) do
      if other == q then
        table.remove(list, i)
        break
      end
    end
    if #list == 0 then
      waiting[buf] = nil
      unmap(buf)
    end
    if vim.api.nvim_buf_is_valid(buf) and t.blocks[q.index] == q.block then -- not after a clear
      t:replace(q.index, { '• [permission] ' .. question .. ' → ' .. (text or 'answered') })
    end
  end
end

-- count returns how many questions wait in buf.
function M.count(buf)
  return #(waiting[buf] or {})
end

return M
