local M = {}

function M.greet(name, greeting, punctuation)
  return string.format(
    '%s, %s%s',
    greeting or 'Hello',
    name,
    punctuation or '!'
  )
end

function M.greet_all(names)
  local out = {}
  for _, name in ipairs(names) do
    table.insert(out, M.greet(name, 'Hi', '.'))
  end
  return table.concat(out, ' ')
end

return M
