// Generated from schemas/components/Email.schema.json by `npm run schemas:compile`; do not edit.
"use strict";
module.exports = validate20;
module.exports.default = validate20;
const schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://canvasflow.dev/schemas/components/Email.schema.json","title":"Email params","description":"Sends an e-mail through SMTP (RAGFlow EmailParam). Usable as an Agent tool and as a canvas node. Outputs: success.","type":"object","properties":{"to_email":{"type":"string","description":"Recipient address (text with {references}; default \"{sys.query}\")."},"cc_email":{"type":"string","description":"Comma-separated CC addresses."},"subject":{"type":"string","description":"Subject."},"content":{"type":"string","description":"HTML body."},"smtp_server":{"type":"string","description":"SMTP server host."},"smtp_port":{"type":["integer","string"],"description":"SMTP port (> 0, default 465)."},"email":{"type":"string","description":"Sender address, also the SMTP login."},"smtp_username":{"type":"string","description":"SMTP user name when it differs from email."},"password":{"type":"string","description":"SMTP password or authorization code."},"sender_name":{"type":"string","description":"Sender display name."}}};

function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://canvasflow.dev/schemas/components/Email.schema.json" */;
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
if(data.to_email !== undefined){
let data0 = data.to_email;
if(typeof data0 !== "string"){
const err0 = {instancePath:instancePath+"/to_email",schemaPath:"#/properties/to_email/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.to_email.type,parentSchema:schema31.properties.to_email,data:data0};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
if(data.cc_email !== undefined){
let data1 = data.cc_email;
if(typeof data1 !== "string"){
const err1 = {instancePath:instancePath+"/cc_email",schemaPath:"#/properties/cc_email/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.cc_email.type,parentSchema:schema31.properties.cc_email,data:data1};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data.subject !== undefined){
let data2 = data.subject;
if(typeof data2 !== "string"){
const err2 = {instancePath:instancePath+"/subject",schemaPath:"#/properties/subject/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.subject.type,parentSchema:schema31.properties.subject,data:data2};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.content !== undefined){
let data3 = data.content;
if(typeof data3 !== "string"){
const err3 = {instancePath:instancePath+"/content",schemaPath:"#/properties/content/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.content.type,parentSchema:schema31.properties.content,data:data3};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.smtp_server !== undefined){
let data4 = data.smtp_server;
if(typeof data4 !== "string"){
const err4 = {instancePath:instancePath+"/smtp_server",schemaPath:"#/properties/smtp_server/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.smtp_server.type,parentSchema:schema31.properties.smtp_server,data:data4};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data.smtp_port !== undefined){
let data5 = data.smtp_port;
if((!((typeof data5 == "number") && (!(data5 % 1) && !isNaN(data5)))) && (typeof data5 !== "string")){
const err5 = {instancePath:instancePath+"/smtp_port",schemaPath:"#/properties/smtp_port/type",keyword:"type",params:{type: schema31.properties.smtp_port.type},message:"must be integer,string",schema:schema31.properties.smtp_port.type,parentSchema:schema31.properties.smtp_port,data:data5};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.email !== undefined){
let data6 = data.email;
if(typeof data6 !== "string"){
const err6 = {instancePath:instancePath+"/email",schemaPath:"#/properties/email/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.email.type,parentSchema:schema31.properties.email,data:data6};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data.smtp_username !== undefined){
let data7 = data.smtp_username;
if(typeof data7 !== "string"){
const err7 = {instancePath:instancePath+"/smtp_username",schemaPath:"#/properties/smtp_username/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.smtp_username.type,parentSchema:schema31.properties.smtp_username,data:data7};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data.password !== undefined){
let data8 = data.password;
if(typeof data8 !== "string"){
const err8 = {instancePath:instancePath+"/password",schemaPath:"#/properties/password/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.password.type,parentSchema:schema31.properties.password,data:data8};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data.sender_name !== undefined){
let data9 = data.sender_name;
if(typeof data9 !== "string"){
const err9 = {instancePath:instancePath+"/sender_name",schemaPath:"#/properties/sender_name/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.sender_name.type,parentSchema:schema31.properties.sender_name,data:data9};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
}
else {
const err10 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.type,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
validate20.errors = vErrors;
return errors === 0;
}
validate20.evaluated = {"props":{"to_email":true,"cc_email":true,"subject":true,"content":true,"smtp_server":true,"smtp_port":true,"email":true,"smtp_username":true,"password":true,"sender_name":true},"dynamicProps":false,"dynamicItems":false};

