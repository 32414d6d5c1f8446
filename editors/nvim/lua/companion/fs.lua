-- The client side of fs/read_text_file and fs/write_text_file: the editor
-- is the source of truth, so a loaded buffer wins over the disk (unsaved
-- changes included), and writes go through the buffer (undoable) and are
-- then saved.
local compat = require('companion.compat')
local rpc = require('companion.rpc')

local M = {}

-- same_file compares two paths, resolving symlinks when both exist.
local function same_file(a, b)
  if a == b then
    return true
  end
  local ra, rb = compat.realpath(a), compat.realpath(b)
  return ra ~= nil and ra == rb
end

-- find_buffer returns the loaded buffer editing path, or nil.
function M.find_buffer(path)
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(buf) and vim.bo[buf].buftype == '' then
      local name = vim.api.nvim_buf_get_name(buf)
      if name ~= '' and same_file(name, path) then
        return buf
      end
    end
  end
  return nil
end

-- buffer_text returns the text a buffer would write: lines joined by \n
-- with a final newline when 'eol' (or 'fixeol') adds one.
function M.buffer_text(buf)
  local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  local text = table.concat(lines, '\n')
  local empty = #lines == 1 and lines[1] == ''
  if not empty and (vim.bo[buf].eol or vim.bo[buf].fixeol) then
    text = text .. '\n'
  end
  return text
end

-- split_text splits text into lines; eol tells whether it ended with \n.
function M.split_text(text)
  local eol = text:sub(-1) == '\n'
  if eol then
    text = text:sub(1, -2)
  end
  return vim.split(text, '\n', { plain = true }), eol
end

-- slice applies ACP's line (1-based first line) and limit (line count).
function M.slice(text, line, limit)
  line, limit = compat.val(line), compat.val(limit)
  if not line and not limit then
    return text
  end
  local lines, eol = M.split_text(text)
  local first = math.max(line or 1, 1)
  local last = limit and math.min(#lines, first + limit - 1) or #lines
  local out = {}
  for i = first, last do
    out[#out + 1] = lines[i]
  end
  local s = table.concat(out, '\n')
  if #out > 0 and (last < #lines or eol) then
    s = s .. '\n'
  end
  return s
end

-- read_disk returns a file's bytes, or raises not found.
local function read_disk(path)
  local f, err = io.open(path, 'rb')
  if not f then
    error(rpc.error(rpc.codes.not_found, ('File not found: %s (%s)'):format(path, err)))
  end
  local data = f:read('*a')
  f:close()
  return data
end

-- read implements fs/read_text_file.
function M.read(params)
  local path = params.path
  if type(path) ~= 'string' or path == '' then
    error(rpc.error(rpc.codes.invalid_params, 'path is required'))
  end
  local buf = M.find_buffer(path)
  local text = buf and M.buffer_text(buf) or read_disk(path)
  return { content = M.slice(text, params.line, params.limit) }
end

-- write_buffer replaces a buffer's text as one undoable change and saves.
local function write_buffer(buf, content)
  local lines, eol = M.split_text(content)
  vim.fn.mkdir(vim.fn.fnamemodify(vim.api.nvim_buf_get_name(buf), ':h'), 'p')
  vim.api.nvim_buf_call(buf, function()
    -- A separate undo block, so `u` takes back exactly the agent's edit.
    vim.bo[buf].undolevels = vim.bo[buf].undolevels
    vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
    vim.bo[buf].eol = eol
    vim.bo[buf].fixeol = eol
    -- noautocmd: the file must hold what the agent wrote, not a formatter's
    -- version of it.
    vim.cmd('silent noautocmd keepalt write!')
  end)
end

-- write_disk writes a file atomically (temp file, then rename).
local function write_disk(path, content)
  vim.fn.mkdir(vim.fn.fnamemodify(path, ':h'), 'p')
  local tmp = path .. '.companion-tmp'
  local f, err = io.open(tmp, 'wb')
  if not f then
    error(rpc.error(rpc.codes.internal_error, ('cannot write %s: %s'):format(path, err)))
  end
  f:write(content)
  f:close()
  local perm = compat.uv.fs_stat(path)
  if perm then
    compat.uv.fs_chmod(tmp, perm.mode % 4096)
  end
  local ok, rerr = compat.uv.fs_rename(tmp, path)
  if not ok then
    os.remove(tmp)
    error(rpc.error(rpc.codes.internal_error, ('cannot write %s: %s'):format(path, rerr)))
  end
end

-- write implements fs/write_text_file.
function M.write(params)
  local path, content = params.path, params.content
  if type(path) ~= 'string' or path == '' or type(content) ~= 'string' then
    error(rpc.error(rpc.codes.invalid_params, 'path and content are required'))
  end
  local buf = M.find_buffer(path)
  if buf then
    write_buffer(buf, content)
  else
    write_disk(path, content)
  end
  return vim.empty_dict()
end

return M
