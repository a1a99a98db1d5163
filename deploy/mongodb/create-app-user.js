// Runs once, on the first start of an empty MongoDB (docker-entrypoint-initdb.d): the service's own user,
// which may read and write its database and nothing else. The root user stays for the operator.
db.getSiblingDB('admin').createUser({
  user: 'hiring',
  pwd: process.env.MONGODB_APP_PASSWORD,
  roles: [{ role: 'readWrite', db: 'hiring' }],
});
