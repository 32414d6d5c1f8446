-- elicitation/create: an MCP server, through the agent, asks the user to
-- fill in a form. The message is shown first (fill in or decline), then
-- each field in turn: vim.ui.select for choices and booleans, vim.ui.input
-- for text and numbers. Dismissing any prompt cancels the whole form.
local M = {}

-- order lists the field names: required ones first, as listed, then the
-- others by name.
function M.order(schema)
  local props = schema.properties or {}
  local names, seen = {}, {}
  for _, n in ipairs(schema.required or {}) do
    if props[n] and not seen[n] then
      table.insert(names, n)
      seen[n] = true
    end
  end
  local rest = {}
  for n in pairs(props) do
    if not seen[n] then
      table.insert(rest, n)
    end
  end
  table.sort(rest)
  vim.list_extend(names, rest)
  -- A field's "own words" companion (name_other) comes right after it.
  local out = {}
  for _, n in ipairs(names) do
    if not (props[n:match('^(.+)_other$') or ''] and M.other_of(props, n)) then
      table.insert(out, n)
      if M.other_of(props, n .. '_other') then
        table.insert(out, n .. '_other')
      end
    end
  end
  return out
end

-- other_of returns the choice field that text field name (<field>_other)
-- belongs to, when that field offers a choice "Other": the text is then
-- asked only when the user picks "Other" (ask_user's questions).
function M.other_of(props, name)
  local base = name:match('^(.+)_other$')
  local prop = base and props[base]
  if not prop or props[name] == nil then
    return nil
  end
  for _, c in ipairs(M.choices(prop) or {}) do
    if c.value == 'Other' then
      return base
    end
  end
  return nil
end

-- choices returns a field's options as { value, label, description }, or
-- nil when the field is not a choice: enum (with legacy enumNames), titled
-- oneOf, and for arrays their items' enum or anyOf.
function M.choices(prop)
  local src = prop.type == 'array' and (prop.items or {}) or prop
  local out = {}
  if type(src.enum) == 'table' then
    for i, v in ipairs(src.enum) do
      table.insert(out, { value = v, label = (src.enumNames or {})[i] or tostring(v) })
    end
  end
  for _, o in ipairs(src.oneOf or src.anyOf or {}) do
    table.insert(out, { value = o.const, label = o.title or tostring(o.const), description = o.description })
  end
  return #out > 0 and out or nil
end

-- label is how a field is introduced in its prompt.
local function label(name, prop, required)
  local s = prop.title or name
  if prop.description then
    s = s .. ' (' .. prop.description .. ')'
  end
  return s .. (required and '' or ' [optional]') .. ': '
end

-- parse converts typed text to the field's type; nil, err when it does
-- not fit.
function M.parse(prop, text, choices)
  if prop.type == 'integer' or prop.type == 'number' then
    local n = tonumber(text)
    if not n or (prop.type == 'integer' and n % 1 ~= 0) then
      return nil, 'not ' .. (prop.type == 'integer' and 'an integer' or 'a number')
    end
    if (prop.minimum and n < prop.minimum) or (prop.maximum and n > prop.maximum) then
      return nil, 'out of range'
    end
    return n
  end
  if prop.type == 'array' then
    local picked = {}
    for part in text:gmatch('[^,]+') do
      local want = vim.trim(part)
      for _, c in ipairs(choices or {}) do
        if c.label == want or tostring(c.value) == want then
          table.insert(picked, c.value)
        end
      end
    end
    return picked
  end
  return text
end

-- choice_text is how a choice reads in a list: its label, then its
-- description when it has one.
function M.choice_text(c)
  return c.description and (c.label .. ' — ' .. c.description) or c.label
end

-- picked tells whether a field's answer is or includes value.
local function picked(answer, value)
  return answer == value or (type(answer) == 'table' and vim.tbl_contains(answer, value))
end

-- ask_field asks one field and calls done(value) — nil for an optional
-- field left empty — or cancel().
local function ask_field(name, prop, required, done, cancel)
  local choices = M.choices(prop)
  local prompt = label(name, prop, required)
  if prop.type == 'boolean' or (choices and prop.type ~= 'array') then
    local items = choices or { { value = true, label = 'yes' }, { value = false, label = 'no' } }
    vim.ui.select(items, { prompt = prompt, format_item = M.choice_text }, function(c)
      if c == nil then
        return cancel()
      end
      done(c.value)
    end)
    return
  end
  if choices then
    local names = vim.tbl_map(M.choice_text, choices)
    prompt = prompt .. '(comma-separated: ' .. table.concat(names, ', ') .. ') '
  end
  local default = prop.default
  if type(default) == 'table' then
    default = table.concat(vim.tbl_map(tostring, default), ', ')
  end
  vim.ui.input({ prompt = prompt, default = default ~= nil and tostring(default) or nil }, function(text)
    if text == nil then
      return cancel()
    end
    if text == '' and not required then
      return done(nil)
    end
    local v, err = M.parse(prop, text, choices)
    if v == nil then
      vim.notify('companion: ' .. (prop.title or name) .. ': ' .. err, vim.log.levels.WARN)
      return ask_field(name, prop, required, done, cancel)
    end
    done(v)
  end)
end

-- fill asks every field in order and calls finish(content) or cancel().
local function fill(schema, finish, cancel)
  local names = M.order(schema)
  local required = {}
  for _, n in ipairs(schema.required or {}) do
    required[n] = true
  end
  local content = vim.empty_dict()
  local function step(i)
    if i > #names then
      return finish(content)
    end
    local n = names[i]
    local base = M.other_of(schema.properties, n)
    if base and not picked(content[base], 'Other') then
      return step(i + 1)
    end
    ask_field(n, schema.properties[n], required[n], function(v)
      if v ~= nil then
        content[n] = v
      end
      step(i + 1)
    end, cancel)
  end
  step(1)
end

-- handle answers one elicitation/create request (asynchronously).
function M.handle(params, req)
  if params.mode ~= 'form' then
    error({ __rpc_error = true, code = -32602, message = 'only form elicitation is supported' })
  end
  local once = false
  local function reply(answer)
    if not once then
      once = true
      req.reply(answer)
    end
  end
  local function cancel() reply({ action = 'cancel' }) end
  local items = { 'Fill in the form', 'Decline' }
  vim.ui.select(items, { prompt = params.message }, function(choice)
    if choice == nil then
      return cancel()
    elseif choice == items[2] then
      return reply({ action = 'decline' })
    end
    fill(params.requestedSchema or {}, function(content)
      reply({ action = 'accept', content = content })
    end, cancel)
  end)
  return nil
end

return M
