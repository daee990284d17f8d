// Generated from schemas/components/Invoke.schema.json by `npm run schemas:compile`; do not edit.
"use strict";
module.exports = validate20;
module.exports.default = validate20;
const schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://canvasflow.dev/schemas/components/Invoke.schema.json","title":"Invoke params","description":"HTTP request: calls a URL with GET, POST or PUT and outputs the response text as result (and the status as status_code). A non-2xx status fails the component; redirects are not followed. Requests to loopback, private and link-local addresses are refused unless the application allows them (services.http.allowPrivateNetwork or CANVASFLOW_ALLOW_PRIVATE_NETWORK=1).","type":"object","properties":{"url":{"type":"string","description":"The endpoint. References such as {begin@base}/items are rendered; http:// is added when there is no scheme. Only http and https are supported."},"method":{"type":["string","null"],"description":"get, post or put, in any case (default get). GET sends the arguments as query parameters; POST and PUT send them as the body."},"headers":{"type":["string","object","null"],"description":"A JSON object of header names to values, as text (what the editor stores) or as an object. {token} placeholders in values are replaced: references (cpn@var, sys.x, env.x) by their value, anything that does not resolve by \"\". Connection, Keep-Alive, Transfer-Encoding, Upgrade, Expect and Content-Length are managed by the HTTP client and ignored.","additionalProperties":{"type":["string","number","boolean","null"]}},"variables":{"type":["array","null"],"description":"The arguments. Each value is the ref's value when it resolves to something other than null, else the templated value, else \"\". Rows without a key are not sent.","items":{"type":"object","properties":{"key":{"type":"string","description":"The argument name."},"ref":{"type":["string","null"],"description":"A reference (cpn@var.path, sys.x or env.x) whose value is sent."},"value":{"description":"The value sent when ref is empty or resolves to nothing; text may hold {references}."}}}},"datatype":{"type":["string","null"],"description":"How POST and PUT send the arguments: json (default; text that parses as JSON is sent as that JSON value) or formdata (an application/x-www-form-urlencoded body, lists repeat the key, null values are left out)."},"timeout":{"type":["number","string","null"],"description":"Seconds for the whole request, from DNS to the last byte of the response (default 60). The engine's timeout for the component is this plus a small margin."},"proxy":{"type":["string","null"],"description":"An http(s) proxy URL. Empty or a bare \"http://\" means no proxy. http:// targets are forwarded through it, https:// targets tunnelled (CONNECT). The proxy's address is checked like the URL's."},"clean_html":{"type":["boolean","null"],"description":"Convert an HTML response to its readable text (scripts, styles, images and link targets dropped)."},"idempotency_key":{"type":"boolean","description":"canvasflow: send an Idempotency-Key header with the step's stable key (task, turn, component, execution). A step run again after a crash sends the same key, so the service can drop the duplicate. Off by default."},"outputs":{"type":["object","array"],"description":"Declared outputs: result (string); canvasflow also sets status_code (number)."}},"required":["url"]};

function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://canvasflow.dev/schemas/components/Invoke.schema.json" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate20.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.url === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "url"},message:"must have required property '"+"url"+"'",schema:schema31.required,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.url !== undefined){
let data0 = data.url;
if(typeof data0 !== "string"){
const err1 = {instancePath:instancePath+"/url",schemaPath:"#/properties/url/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.url.type,parentSchema:schema31.properties.url,data:data0};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data.method !== undefined){
let data1 = data.method;
if((typeof data1 !== "string") && (data1 !== null)){
const err2 = {instancePath:instancePath+"/method",schemaPath:"#/properties/method/type",keyword:"type",params:{type: schema31.properties.method.type},message:"must be string,null",schema:schema31.properties.method.type,parentSchema:schema31.properties.method,data:data1};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.headers !== undefined){
let data2 = data.headers;
if(((typeof data2 !== "string") && (!(data2 && typeof data2 == "object" && !Array.isArray(data2)))) && (data2 !== null)){
const err3 = {instancePath:instancePath+"/headers",schemaPath:"#/properties/headers/type",keyword:"type",params:{type: schema31.properties.headers.type},message:"must be string,object,null",schema:schema31.properties.headers.type,parentSchema:schema31.properties.headers,data:data2};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if(data2 && typeof data2 == "object" && !Array.isArray(data2)){
for(const key0 in data2){
let data3 = data2[key0];
if((((typeof data3 !== "string") && (!(typeof data3 == "number"))) && (typeof data3 !== "boolean")) && (data3 !== null)){
const err4 = {instancePath:instancePath+"/headers/" + key0.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/headers/additionalProperties/type",keyword:"type",params:{type: schema31.properties.headers.additionalProperties.type},message:"must be string,number,boolean,null",schema:schema31.properties.headers.additionalProperties.type,parentSchema:schema31.properties.headers.additionalProperties,data:data3};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
}
}
if(data.variables !== undefined){
let data4 = data.variables;
if((!(Array.isArray(data4))) && (data4 !== null)){
const err5 = {instancePath:instancePath+"/variables",schemaPath:"#/properties/variables/type",keyword:"type",params:{type: schema31.properties.variables.type},message:"must be array,null",schema:schema31.properties.variables.type,parentSchema:schema31.properties.variables,data:data4};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
if(Array.isArray(data4)){
const len0 = data4.length;
for(let i0=0; i0<len0; i0++){
let data5 = data4[i0];
if(data5 && typeof data5 == "object" && !Array.isArray(data5)){
if(data5.key !== undefined){
let data6 = data5.key;
if(typeof data6 !== "string"){
const err6 = {instancePath:instancePath+"/variables/" + i0+"/key",schemaPath:"#/properties/variables/items/properties/key/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.variables.items.properties.key.type,parentSchema:schema31.properties.variables.items.properties.key,data:data6};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data5.ref !== undefined){
let data7 = data5.ref;
if((typeof data7 !== "string") && (data7 !== null)){
const err7 = {instancePath:instancePath+"/variables/" + i0+"/ref",schemaPath:"#/properties/variables/items/properties/ref/type",keyword:"type",params:{type: schema31.properties.variables.items.properties.ref.type},message:"must be string,null",schema:schema31.properties.variables.items.properties.ref.type,parentSchema:schema31.properties.variables.items.properties.ref,data:data7};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
}
else {
const err8 = {instancePath:instancePath+"/variables/" + i0,schemaPath:"#/properties/variables/items/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.properties.variables.items.type,parentSchema:schema31.properties.variables.items,data:data5};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
}
}
if(data.datatype !== undefined){
let data8 = data.datatype;
if((typeof data8 !== "string") && (data8 !== null)){
const err9 = {instancePath:instancePath+"/datatype",schemaPath:"#/properties/datatype/type",keyword:"type",params:{type: schema31.properties.datatype.type},message:"must be string,null",schema:schema31.properties.datatype.type,parentSchema:schema31.properties.datatype,data:data8};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
if(data.timeout !== undefined){
let data9 = data.timeout;
if(((!(typeof data9 == "number")) && (typeof data9 !== "string")) && (data9 !== null)){
const err10 = {instancePath:instancePath+"/timeout",schemaPath:"#/properties/timeout/type",keyword:"type",params:{type: schema31.properties.timeout.type},message:"must be number,string,null",schema:schema31.properties.timeout.type,parentSchema:schema31.properties.timeout,data:data9};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
if(data.proxy !== undefined){
let data10 = data.proxy;
if((typeof data10 !== "string") && (data10 !== null)){
const err11 = {instancePath:instancePath+"/proxy",schemaPath:"#/properties/proxy/type",keyword:"type",params:{type: schema31.properties.proxy.type},message:"must be string,null",schema:schema31.properties.proxy.type,parentSchema:schema31.properties.proxy,data:data10};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data.clean_html !== undefined){
let data11 = data.clean_html;
if((typeof data11 !== "boolean") && (data11 !== null)){
const err12 = {instancePath:instancePath+"/clean_html",schemaPath:"#/properties/clean_html/type",keyword:"type",params:{type: schema31.properties.clean_html.type},message:"must be boolean,null",schema:schema31.properties.clean_html.type,parentSchema:schema31.properties.clean_html,data:data11};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
if(data.idempotency_key !== undefined){
let data12 = data.idempotency_key;
if(typeof data12 !== "boolean"){
const err13 = {instancePath:instancePath+"/idempotency_key",schemaPath:"#/properties/idempotency_key/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema31.properties.idempotency_key.type,parentSchema:schema31.properties.idempotency_key,data:data12};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
if(data.outputs !== undefined){
let data13 = data.outputs;
if(!data13 || typeof data13 != "object"){
const err14 = {instancePath:instancePath+"/outputs",schemaPath:"#/properties/outputs/type",keyword:"type",params:{type: schema31.properties.outputs.type},message:"must be object,array",schema:schema31.properties.outputs.type,parentSchema:schema31.properties.outputs,data:data13};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
}
else {
const err15 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.type,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
validate20.errors = vErrors;
return errors === 0;
}
validate20.evaluated = {"props":{"url":true,"method":true,"headers":true,"variables":true,"datatype":true,"timeout":true,"proxy":true,"clean_html":true,"idempotency_key":true,"outputs":true},"dynamicProps":false,"dynamicItems":false};

