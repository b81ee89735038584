CREATE TABLE users (id BIGINT PRIMARY KEY, name TEXT NOT NULL);

SELECT
    id,
    name
FROM
    users;
