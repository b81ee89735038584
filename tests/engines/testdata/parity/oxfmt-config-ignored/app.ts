const greeting = 'hello'
export default greeting
